package io.github.cdk8s_kubeflow.bindings;

import static io.github.cdk8s_kubeflow.bindings.Manifests.at;
import static io.github.cdk8s_kubeflow.bindings.Manifests.list;
import static io.github.cdk8s_kubeflow.bindings.Manifests.map;
import static io.github.cdk8s_kubeflow.bindings.Manifests.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.cdk8s_kubeflow.Accelerator;
import io.github.cdk8s_kubeflow.ClusterTrainingRuntime;
import io.github.cdk8s_kubeflow.MlPolicy;
import io.github.cdk8s_kubeflow.PodSecurity;
import io.github.cdk8s_kubeflow.Resources;
import io.github.cdk8s_kubeflow.TrainJob;
import io.github.cdk8s_kubeflow.TrainJobInitializer;
import io.github.cdk8s_kubeflow.TrainingRuntimeRef;
import java.io.File;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;
import org.cdk8s.Testing;
import org.cdk8s.Yaml;
import org.cdk8s.plus28.Cpu;
import org.cdk8s.plus28.EnvValue;
import org.cdk8s.plus28.Secret;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kubeflow Trainer v2 through the Java package that jsii-pacmak built: a platform team's
 * ClusterTrainingRuntime with a TrainJob on it, a TrainJob on a built-in runtime with
 * initializers, and a job the library refuses.
 */
class TrainJobTest {
    private static final String TORCH_IMAGE = "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime";

    private static App app;
    private static ClusterTrainingRuntime runtime;
    private static TrainJob job;
    /** The files app.synth() wrote, by name in order, with their documents. */
    private static Map<String, List<Object>> files;

    @BeforeAll
    static void synth() {
        app = Testing.app();
        // The team's chart comes first in the app; the platform chart's namespace is one the
        // cluster-scoped runtime leaves out.
        Chart team = new Chart(app, "team", ChartProps.builder().namespace("team-nlp").build());
        Chart platform = new Chart(app, "platform", ChartProps.builder().namespace("platform").build());
        runtime = ClusterTrainingRuntime.Builder.create(platform, "torch-h100")
                .metadata(ApiObjectMetadata.builder().name("torch-h100").build())
                .mlPolicy(MlPolicy.torch())
                .numNodes(2)
                .image(TORCH_IMAGE)
                .resources(Resources.builder().accelerator(Accelerator.nvidia(8)).build())
                .sharedMemory(Size.gibibytes(32))
                .security(PodSecurity.RESTRICTED)
                .build();
        job = TrainJob.Builder.create(team, "llama-sft")
                .metadata(ApiObjectMetadata.builder().name("llama-sft").build())
                .runtime(runtime.getRef())
                .command(List.of("torchrun", "/workspace/sft.py"))
                .numNodes(4)
                .numProcPerNode(8)
                .resourcesPerNode(Resources.builder()
                        .accelerator(Accelerator.nvidia(8)).cpu(Cpu.units(32)).memory(Size.gibibytes(256)).build())
                .queue("team-nlp")
                .build();
        app.synth();

        String[] names = new File(app.getOutdir()).list();
        assertNotNull(names);
        Arrays.sort(names);
        files = new LinkedHashMap<>();
        for (String name : names) {
            files.put(name, Yaml.load(new File(app.getOutdir(), name).getPath()));
        }
    }


    private static Map<String, Object> only(List<Object> documents, String kind) {
        List<Map<String, Object>> matching = documents.stream().map(Manifests::map)
                .filter(d -> kind.equals(d.get("kind"))).collect(Collectors.toList());
        assertEquals(1, matching.size(), "documents of kind " + kind);
        return matching.get(0);
    }

    private static List<Object> kinds(List<Object> documents) {
        return documents.stream().map(d -> map(d).get("kind")).collect(Collectors.toList());
    }

    private static Map<String, Object> nodePod() {
        Map<String, Object> runtimeDoc = only(files.get("0000-platform.k8s.yaml"), "ClusterTrainingRuntime");
        List<Object> jobs = list(at(runtimeDoc, "spec", "template", "spec", "replicatedJobs"));
        assertEquals(1, jobs.size());
        assertEquals("node", map(jobs.get(0)).get("name"));
        return map(at(jobs.get(0), "template", "spec", "template", "spec"));
    }

    private static Map<String, Object> nodeContainer() {
        List<Object> containers = list(nodePod().get("containers"));
        assertEquals(1, containers.size());
        Map<String, Object> container = map(containers.get(0));
        assertEquals("node", container.get("name"));
        return container;
    }

    @Test
    void theRuntimeIsWrittenBeforeTheJob() {
        // The job's dependency on the runtime puts the runtime's chart first, with the index cdk8s
        // prefixes to the files of dependent charts.
        assertEquals(List.of("platform", "team"),
                app.getCharts().stream().map(c -> c.getNode().getId()).collect(Collectors.toList()));
        assertEquals(List.of("0000-platform.k8s.yaml", "0001-team.k8s.yaml"), List.copyOf(files.keySet()));
        assertEquals(List.of("ClusterTrainingRuntime"), kinds(files.get("0000-platform.k8s.yaml")));
        assertEquals(List.of("TrainJob"), kinds(files.get("0001-team.k8s.yaml")));
    }

    @Test
    void runtimePolicyAndMetadata() {
        Map<String, Object> runtimeDoc = only(files.get("0000-platform.k8s.yaml"), "ClusterTrainingRuntime");
        assertEquals("trainer.kubeflow.org/v1alpha1", runtimeDoc.get("apiVersion"));
        assertEquals(Map.of("name", "torch-h100", "labels", Map.of("trainer.kubeflow.org/framework", "torch")),
                runtimeDoc.get("metadata"));
        Map<String, Object> policy = map(at(runtimeDoc, "spec", "mlPolicy"));
        assertEquals(2, policy.size());
        assertEquals(2, number(policy.get("numNodes")));
        assertEquals(Map.of(), policy.get("torch"));
    }

    @Test
    void runtimeNodeGpusAndSharedMemory() {
        Map<String, Object> container = nodeContainer();
        assertEquals(TORCH_IMAGE, container.get("image"));
        Map<String, Object> limits = map(at(container, "resources", "limits"));
        assertEquals(1, limits.size());
        assertEquals(8, number(limits.get("nvidia.com/gpu")));
        assertEquals(limits, at(container, "resources", "requests"));
        assertEquals(List.of(Map.of("mountPath", "/dev/shm", "name", "dshm")), container.get("volumeMounts"));
        assertEquals(List.of(Map.of("name", "dshm", "emptyDir", Map.of("medium", "Memory", "sizeLimit", "32768Mi"))),
                nodePod().get("volumes"));
    }

    @Test
    void runtimeRestrictedSecurity() {
        Map<String, Object> seccomp = Map.of("type", "RuntimeDefault");
        assertEquals(Map.of("runAsNonRoot", true, "seccompProfile", seccomp), nodePod().get("securityContext"));
        assertEquals(Map.of(
                "allowPrivilegeEscalation", false,
                "capabilities", Map.of("drop", List.of("ALL")),
                "privileged", false,
                "runAsNonRoot", true,
                "seccompProfile", seccomp), nodeContainer().get("securityContext"));
    }

    @Test
    void theJobOnTheRuntime() {
        Map<String, Object> jobDoc = only(files.get("0001-team.k8s.yaml"), "TrainJob");
        assertEquals("trainer.kubeflow.org/v1alpha1", jobDoc.get("apiVersion"));
        assertEquals(Map.of("name", "llama-sft", "namespace", "team-nlp",
                "labels", Map.of("kueue.x-k8s.io/queue-name", "team-nlp")), jobDoc.get("metadata"));
        assertEquals(Map.of("apiGroup", "trainer.kubeflow.org", "kind", "ClusterTrainingRuntime", "name", "torch-h100"),
                at(jobDoc, "spec", "runtimeRef"));
        Map<String, Object> trainer = map(at(jobDoc, "spec", "trainer"));
        assertEquals(List.of("torchrun", "/workspace/sft.py"), trainer.get("command"));
        assertEquals(4, number(trainer.get("numNodes")));
        assertEquals(8, number(trainer.get("numProcPerNode")));
        Map<String, Object> limits = map(at(trainer, "resourcesPerNode", "limits"));
        assertEquals(3, limits.size());
        assertEquals("32", limits.get("cpu"));
        assertEquals("256Gi", limits.get("memory"));
        assertEquals(8, number(limits.get("nvidia.com/gpu")));
        assertEquals(limits, at(trainer, "resourcesPerNode", "requests"));
    }

    @Test
    void javaGetters() {
        assertEquals("torch-h100", runtime.getName());
        assertEquals(List.of("node"), runtime.getReplicatedJobNames());
        assertEquals("torch", runtime.getMlPolicy().getFramework());
        assertFalse(runtime.getMlPolicy().getIsMpi());
        assertEquals(8, runtime.getNodes().getAccelerator().getCount().intValue());
        assertNull(runtime.getLauncher());
        assertNull(runtime.getDatasetInitializer());
        TrainingRuntimeRef ref = job.getRuntime();
        assertEquals("ClusterTrainingRuntime", ref.getKind());
        assertEquals("torch-h100", ref.getName());
        assertEquals("llama-sft", job.getName());
        // The dependency that writes the runtime first, on the job's API object.
        assertEquals(List.of("platform/torch-h100/Resource"), job.getApiObject().getNode().getDependencies().stream()
                .map(d -> d.getNode().getPath()).collect(Collectors.toList()));
    }

    @Test
    void aBuiltInRuntimeWithInitializers() {
        Chart chart = new Chart(Testing.app(), "tune", ChartProps.builder().namespace("team-nlp").build());
        TrainJob alpaca = TrainJob.Builder.create(chart, "alpaca")
                .metadata(ApiObjectMetadata.builder().name("alpaca").build())
                .runtime(TrainingRuntimeRef.cluster("torchtune-llama3.2-1b"))
                .datasetInitializer(TrainJobInitializer.builder().storageUri("hf://tatsu-lab/alpaca").build())
                .modelInitializer(TrainJobInitializer.builder()
                        .storageUri("hf://meta-llama/Llama-3.2-1B-Instruct")
                        .secret(Secret.fromSecretName(chart, "HfToken", "hf-token"))
                        .env(Map.of("HF_HUB_DISABLE_PROGRESS_BARS", EnvValue.fromValue("1")))
                        .build())
                .resourcesPerNode(Resources.builder().accelerator(Accelerator.nvidia(2)).build())
                .build();

        List<Object> manifests = Testing.synth(chart);
        assertEquals(1, manifests.size());
        Map<String, Object> manifest = map(manifests.get(0));
        assertEquals("TrainJob", manifest.get("kind"));
        assertEquals(Map.of("name", "alpaca", "namespace", "team-nlp"), manifest.get("metadata"));
        Map<String, Object> spec = map(manifest.get("spec"));
        assertEquals(List.of("initializer", "runtimePatches", "runtimeRef", "trainer"), spec.keySet().stream().sorted().collect(Collectors.toList()));
        assertEquals(Map.of("apiGroup", "trainer.kubeflow.org", "kind", "ClusterTrainingRuntime", "name", "torchtune-llama3.2-1b"),
                spec.get("runtimeRef"));
        assertEquals(Map.of(
                "dataset", Map.of("storageUri", "hf://tatsu-lab/alpaca"),
                "model", Map.of(
                        "storageUri", "hf://meta-llama/Llama-3.2-1B-Instruct",
                        "env", List.of(Map.of("name", "HF_HUB_DISABLE_PROGRESS_BARS", "value", "1")),
                        "secretRef", Map.of("name", "hf-token"))), spec.get("initializer"));
        Map<String, Object> resources = map(at(spec, "trainer", "resourcesPerNode"));
        assertEquals(1, map(spec.get("trainer")).size());
        assertEquals(2, number(at(resources, "limits", "nvidia.com/gpu")));
        assertEquals(resources.get("limits"), resources.get("requests"));
        // The built-in runtime's pods have no tolerations: the GPU taint's, as on a v1 job, by the patch.
        Map<String, Object> patch = map(((List<?>) spec.get("runtimePatches")).get(0));
        assertEquals("cdk8s-kubeflow/train-job", patch.get("manager"));
        Map<String, Object> node = map(((List<?>) at(patch, "trainingRuntimeSpec", "template", "spec", "replicatedJobs")).get(0));
        assertEquals("node", node.get("name"));
        assertEquals(List.of(Map.of("effect", "NoSchedule", "key", "nvidia.com/gpu", "operator", "Exists")),
                at(node, "template", "spec", "template", "spec", "tolerations"));
        // A runtime by name: nothing of the app to depend on.
        assertEquals("torchtune-llama3.2-1b", alpaca.getRuntime().getName());
        assertTrue(alpaca.getApiObject().getNode().getDependencies().isEmpty());
    }

    @Test
    void aStorageUriWithoutASchemeIsRefused() {
        Chart chart = new Chart(Testing.app(), "bad");
        RuntimeException error = assertThrows(RuntimeException.class, () -> TrainJob.Builder.create(chart, "job")
                .runtime(TrainingRuntimeRef.cluster("torchtune-llama3.2-1b"))
                .datasetInitializer(TrainJobInitializer.builder().storageUri("tatsu-lab/alpaca").build())
                .build());
        // The Java runtime appends what the jsii kernel sends as the error's stack to the message, on
        // the next line; for the library's errors that is the message again, without JavaScript
        // frames (src/util/user-error.ts).
        String expected = "bad/job: datasetInitializer.storageUri is \"tatsu-lab/alpaca\"; "
                + "expected a URI with a scheme, such as hf://tatsu-lab/alpaca or s3://bucket/path";
        String message = error.getMessage();
        assertEquals(expected, message.split("\n", 2)[0], message);
        assertFalse(message.contains("\n    at "), message);
    }
}
