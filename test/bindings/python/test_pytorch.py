"""DistributedPyTorch through the Python package that jsii-pacmak built (dist-packages/python).

cdk8s.Testing is used through its module: a class named Test* imported into a test module would be
collected by pytest.
"""
import cdk8s
import cdk8s_plus_28 as kplus
import pytest
from cdk8s import Chart, Size

import cdk8s_kubeflow as kf


def synth_job():
    app = cdk8s.Testing.app()
    chart = Chart(app, "vision", namespace="team-a")
    job = kf.DistributedPyTorch(
        chart,
        "resnet",
        metadata=cdk8s.ApiObjectMetadata(name="resnet"),
        image="pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime",
        command=["torchrun", "/workspace/train.py"],
        workers=2,
        resources=kf.Resources(accelerator=kf.Accelerator.nvidia(1)),
        shared_memory=Size.gibibytes(4),
        queue="team-a",
    )
    claim = kplus.PersistentVolumeClaim.from_claim_name(chart, "Imagenet", "imagenet")
    dataset = kplus.Volume.from_persistent_volume_claim(chart, "Dataset", claim, read_only=True)
    job.mount("/data", dataset, read_only=True)
    return job, cdk8s.Testing.synth(chart)


@pytest.fixture(scope="module")
def synthesized():
    return synth_job()


@pytest.fixture(scope="module")
def manifest(synthesized):
    _, manifests = synthesized
    assert len(manifests) == 1
    return manifests[0]


def replica_specs(manifest):
    return manifest["spec"]["pytorchReplicaSpecs"]


def test_kind_and_replicas(manifest):
    assert manifest["apiVersion"] == "kubeflow.org/v1"
    assert manifest["kind"] == "PyTorchJob"
    assert manifest["metadata"]["name"] == "resnet"
    assert manifest["metadata"]["namespace"] == "team-a"
    specs = replica_specs(manifest)
    assert sorted(specs) == ["Master", "Worker"]
    assert specs["Master"]["replicas"] == 1
    assert specs["Worker"]["replicas"] == 2
    assert manifest["spec"]["nprocPerNode"] == "1"


@pytest.mark.parametrize("role", ["Master", "Worker"])
def test_gpu_limits_equal_requests(manifest, role):
    (container,) = replica_specs(manifest)[role]["template"]["spec"]["containers"]
    assert container["name"] == "pytorch"
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 1}
    assert container["resources"]["requests"] == container["resources"]["limits"]


@pytest.mark.parametrize("role", ["Master", "Worker"])
def test_shared_memory(manifest, role):
    pod = replica_specs(manifest)[role]["template"]["spec"]
    mounts = {m["mountPath"]: m for m in pod["containers"][0]["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    shm = volumes[mounts["/dev/shm"]["name"]]
    assert shm["emptyDir"] == {"medium": "Memory", "sizeLimit": "4096Mi"}


@pytest.mark.parametrize("role", ["Master", "Worker"])
def test_dataset_read_only(manifest, role):
    pod = replica_specs(manifest)[role]["template"]["spec"]
    mounts = {m["mountPath"]: m for m in pod["containers"][0]["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert mounts["/data"]["readOnly"] is True
    claim = volumes[mounts["/data"]["name"]]["persistentVolumeClaim"]
    assert claim == {"claimName": "imagenet", "readOnly": True}


def test_kueue_label(manifest):
    assert manifest["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "team-a"


def test_python_names(synthesized):
    """Properties and groups read as Python: snake_case members, typed objects back."""
    job, _ = synthesized
    assert job.name == "resnet"
    assert isinstance(job.master, kf.ReplicaGroup)
    assert job.master.replicas == 1 and job.worker.replicas == 2
    assert job.worker.replica_type == "Worker"
    assert job.worker.accelerator.resource_name == "nvidia.com/gpu"
    assert [g.replica_type for g in job.replica_groups] == ["Master", "Worker"]


def test_a_construct_time_error_reaches_python_as_the_message_alone():
    app = cdk8s.Testing.app()
    chart = Chart(app, "bad")
    with pytest.raises(RuntimeError) as error:
        kf.DistributedPyTorch(chart, "job", image="pytorch/pytorch:2.5.0", workers=-1)
    message = "bad/job: workers is -1; expected a whole number of 0 or more"
    assert str(error.value) == message
    # The cause jsii chains to it, which Python prints first: the message, without JavaScript frames.
    assert error.value.__cause__.stack == message
