package io.github.cdk8s_kubeflow.bindings;

import static io.github.cdk8s_kubeflow.bindings.Manifests.at;
import static io.github.cdk8s_kubeflow.bindings.Manifests.list;
import static io.github.cdk8s_kubeflow.bindings.Manifests.map;
import static io.github.cdk8s_kubeflow.bindings.Manifests.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.cdk8s_kubeflow.Accelerator;
import io.github.cdk8s_kubeflow.DistributedPyTorch;
import io.github.cdk8s_kubeflow.DistributedPyTorchProps;
import io.github.cdk8s_kubeflow.ReplicaGroup;
import io.github.cdk8s_kubeflow.Resources;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;
import org.cdk8s.Testing;
import org.cdk8s.plus28.IPersistentVolumeClaim;
import org.cdk8s.plus28.MountOptions;
import org.cdk8s.plus28.PersistentVolumeClaim;
import org.cdk8s.plus28.PersistentVolumeClaimVolumeOptions;
import org.cdk8s.plus28.Volume;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DistributedPyTorch through the Java package that jsii-pacmak built (dist-packages/java). */
class DistributedPyTorchTest {
    private static DistributedPyTorch job;
    private static Map<String, Object> manifest;

    @BeforeAll
    static void synth() {
        App app = Testing.app();
        Chart chart = new Chart(app, "vision", ChartProps.builder().namespace("team-a").build());
        job = new DistributedPyTorch(chart, "resnet", DistributedPyTorchProps.builder()
                .metadata(ApiObjectMetadata.builder().name("resnet").build())
                .image("pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime")
                .command(List.of("torchrun", "/workspace/train.py"))
                .workers(2)
                .resources(Resources.builder().accelerator(Accelerator.nvidia(1)).build())
                .sharedMemory(Size.gibibytes(4))
                .queue("team-a")
                .build());
        IPersistentVolumeClaim claim = PersistentVolumeClaim.fromClaimName(chart, "Imagenet", "imagenet");
        Volume dataset = Volume.fromPersistentVolumeClaim(chart, "Dataset", claim,
                PersistentVolumeClaimVolumeOptions.builder().readOnly(true).build());
        job.mount("/data", dataset, MountOptions.builder().readOnly(true).build());

        List<Object> manifests = Testing.synth(chart);
        assertEquals(1, manifests.size());
        manifest = map(manifests.get(0));
    }


    private static Map<String, Object> podSpec(String role) {
        return map(at(manifest, "spec", "pytorchReplicaSpecs", role, "template", "spec"));
    }

    private static Map<String, Object> mainContainer(String role) {
        List<Object> containers = list(podSpec(role).get("containers"));
        assertEquals(1, containers.size());
        Map<String, Object> container = map(containers.get(0));
        assertEquals("pytorch", container.get("name"));
        return container;
    }

    private static Map<String, Map<String, Object>> byKey(Object items, String key) {
        return list(items).stream().map(Manifests::map)
                .collect(Collectors.toMap(m -> (String) m.get(key), m -> m));
    }

    @Test
    void kindAndReplicas() {
        assertEquals("kubeflow.org/v1", manifest.get("apiVersion"));
        assertEquals("PyTorchJob", manifest.get("kind"));
        assertEquals("resnet", at(manifest, "metadata", "name"));
        assertEquals("team-a", at(manifest, "metadata", "namespace"));
        assertEquals(1, number(at(manifest, "spec", "pytorchReplicaSpecs", "Master", "replicas")));
        assertEquals(2, number(at(manifest, "spec", "pytorchReplicaSpecs", "Worker", "replicas")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Master", "Worker"})
    void gpuLimitsEqualRequests(String role) {
        Map<String, Object> resources = map(mainContainer(role).get("resources"));
        Map<String, Object> limits = map(resources.get("limits"));
        assertEquals(1, limits.size());
        assertEquals(1, number(limits.get("nvidia.com/gpu")));
        assertEquals(limits, resources.get("requests"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Master", "Worker"})
    void sharedMemory(String role) {
        Map<String, Map<String, Object>> mounts = byKey(mainContainer(role).get("volumeMounts"), "mountPath");
        Map<String, Map<String, Object>> volumes = byKey(podSpec(role).get("volumes"), "name");
        Map<String, Object> shm = volumes.get((String) mounts.get("/dev/shm").get("name"));
        assertEquals(Map.of("medium", "Memory", "sizeLimit", "4096Mi"), at(shm, "emptyDir"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Master", "Worker"})
    void datasetReadOnly(String role) {
        Map<String, Map<String, Object>> mounts = byKey(mainContainer(role).get("volumeMounts"), "mountPath");
        Map<String, Map<String, Object>> volumes = byKey(podSpec(role).get("volumes"), "name");
        Map<String, Object> data = mounts.get("/data");
        assertEquals(Boolean.TRUE, data.get("readOnly"));
        Map<String, Object> claim = map(at(volumes.get((String) data.get("name")), "persistentVolumeClaim"));
        assertEquals("imagenet", claim.get("claimName"));
        assertEquals(Boolean.TRUE, claim.get("readOnly"));
    }

    @Test
    void kueueLabel() {
        assertEquals("team-a", at(manifest, "metadata", "labels", "kueue.x-k8s.io/queue-name"));
    }

    @Test
    void javaGetters() {
        assertEquals("resnet", job.getName());
        ReplicaGroup master = job.getMaster();
        ReplicaGroup worker = job.getWorker();
        assertEquals(1, master.getReplicas().intValue());
        assertEquals(2, worker.getReplicas().intValue());
        assertEquals("Worker", worker.getReplicaType());
        assertEquals("nvidia.com/gpu", worker.getAccelerator().getResourceName());
        assertEquals(List.of("Master", "Worker"),
                job.getReplicaGroups().stream().map(ReplicaGroup::getReplicaType).collect(Collectors.toList()));
    }

    @Test
    void validationReachesJava() {
        Chart chart = new Chart(Testing.app(), "bad");
        RuntimeException error = assertThrows(RuntimeException.class, () ->
                DistributedPyTorch.Builder.create(chart, "job").image("pytorch/pytorch:2.5.0").workers(-1).build());
        assertTrue(error.getMessage().contains("workers is -1"), error.getMessage());
    }
}
