"""Kubeflow Trainer v2 through the Python package that jsii-pacmak built: a platform team's
ClusterTrainingRuntime with a TrainJob on it, a TrainJob on a built-in runtime with initializers,
a job the library refuses, and the Trainer v2 block of docs/bindings.md run as written.
"""
import os
import subprocess
import sys

import cdk8s
import cdk8s_plus_28 as kplus
import pytest
from cdk8s import Chart, Size

import cdk8s_kubeflow as kf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from docsnippets import python_blocks  # noqa: E402

TORCH_IMAGE = "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"


@pytest.fixture(scope="module")
def platform():
    """The runtime and the job in two charts of one app, the team's chart first, written by app.synth()."""
    app = cdk8s.Testing.app()
    team = Chart(app, "team", namespace="team-nlp")
    # A namespace on the chart, which the cluster-scoped runtime leaves out.
    platform = Chart(app, "platform", namespace="platform")
    runtime = kf.ClusterTrainingRuntime(
        platform,
        "torch-h100",
        metadata=cdk8s.ApiObjectMetadata(name="torch-h100"),
        ml_policy=kf.MlPolicy.torch(),
        num_nodes=2,
        image=TORCH_IMAGE,
        resources=kf.Resources(accelerator=kf.Accelerator.nvidia(8)),
        shared_memory=Size.gibibytes(32),
        security=kf.PodSecurity.RESTRICTED,
    )
    job = kf.TrainJob(
        team,
        "llama-sft",
        metadata=cdk8s.ApiObjectMetadata(name="llama-sft"),
        runtime=runtime.ref,
        command=["torchrun", "/workspace/sft.py"],
        num_nodes=4,
        num_proc_per_node=8,
        resources_per_node=kf.Resources(
            accelerator=kf.Accelerator.nvidia(8), cpu=kplus.Cpu.units(32), memory=Size.gibibytes(256)
        ),
        queue="team-nlp",
    )
    app.synth()
    files = sorted(os.listdir(app.outdir))
    docs = {name: cdk8s.Yaml.load(os.path.join(app.outdir, name)) for name in files}
    return app, runtime, job, docs


def only(docs, kind):
    (doc,) = [d for d in docs if d["kind"] == kind]
    return doc


def test_the_runtime_is_written_before_the_job(platform):
    app, _, _, docs = platform
    # The job's chart was created first; its dependency on the runtime puts the runtime's chart
    # first, with the index cdk8s prefixes to the files of dependent charts.
    assert [chart.node.id for chart in app.charts] == ["platform", "team"]
    assert list(docs) == ["0000-platform.k8s.yaml", "0001-team.k8s.yaml"]
    assert [d["kind"] for d in docs["0000-platform.k8s.yaml"]] == ["ClusterTrainingRuntime"]
    assert [d["kind"] for d in docs["0001-team.k8s.yaml"]] == ["TrainJob"]


@pytest.fixture(scope="module")
def runtime_doc(platform):
    return only(platform[3]["0000-platform.k8s.yaml"], "ClusterTrainingRuntime")


@pytest.fixture(scope="module")
def node_pod(runtime_doc):
    (node,) = runtime_doc["spec"]["template"]["spec"]["replicatedJobs"]
    assert node["name"] == "node"
    assert node["template"]["metadata"]["labels"] == {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}
    return node["template"]["spec"]["template"]["spec"]


def test_runtime_policy_and_metadata(runtime_doc):
    assert runtime_doc["apiVersion"] == "trainer.kubeflow.org/v1alpha1"
    assert runtime_doc["metadata"] == {"name": "torch-h100", "labels": {"trainer.kubeflow.org/framework": "torch"}}
    assert runtime_doc["spec"]["mlPolicy"] == {"numNodes": 2, "torch": {}}


def test_runtime_node_gpus_and_shared_memory(node_pod):
    (container,) = node_pod["containers"]
    assert container["name"] == "node"
    assert container["image"] == TORCH_IMAGE
    assert container["resources"] == {"limits": {"nvidia.com/gpu": 8}, "requests": {"nvidia.com/gpu": 8}}
    assert container["volumeMounts"] == [{"mountPath": "/dev/shm", "name": "dshm"}]
    assert node_pod["volumes"] == [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "32768Mi"}}]


def test_runtime_restricted_security(node_pod):
    assert node_pod["securityContext"] == {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}}
    (container,) = node_pod["containers"]
    assert container["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "capabilities": {"drop": ["ALL"]},
        "privileged": False,
        "runAsNonRoot": True,
        "seccompProfile": {"type": "RuntimeDefault"},
    }


def test_the_job_on_the_runtime(platform):
    job = only(platform[3]["0001-team.k8s.yaml"], "TrainJob")
    assert job["apiVersion"] == "trainer.kubeflow.org/v1alpha1"
    assert job["metadata"] == {
        "name": "llama-sft",
        "namespace": "team-nlp",
        "labels": {"kueue.x-k8s.io/queue-name": "team-nlp"},
    }
    assert job["spec"]["runtimeRef"] == {
        "apiGroup": "trainer.kubeflow.org",
        "kind": "ClusterTrainingRuntime",
        "name": "torch-h100",
    }
    trainer = job["spec"]["trainer"]
    assert trainer["command"] == ["torchrun", "/workspace/sft.py"]
    assert (trainer["numNodes"], trainer["numProcPerNode"]) == (4, 8)
    limits = {"cpu": "32", "memory": "256Gi", "nvidia.com/gpu": 8}
    assert trainer["resourcesPerNode"] == {"limits": limits, "requests": limits}


def test_python_names(platform):
    """Properties read as Python: snake_case members, typed objects back, the reference kept."""
    _, runtime, job, _ = platform
    assert runtime.name == "torch-h100"
    assert runtime.replicated_job_names == ["node"]
    assert runtime.ml_policy.framework == "torch" and runtime.ml_policy.is_mpi is False
    assert isinstance(runtime.nodes, kf.ReplicaGroup)
    assert runtime.nodes.accelerator.count == 8
    assert runtime.launcher is None and runtime.dataset_initializer is None
    assert isinstance(job.runtime, kf.TrainingRuntimeRef)
    assert (job.runtime.kind, job.runtime.name) == ("ClusterTrainingRuntime", "torch-h100")
    assert job.name == "llama-sft"
    # The dependency that writes the runtime first, on the job's API object.
    assert [d.node.path for d in job.api_object.node.dependencies] == ["platform/torch-h100/Resource"]


def test_a_built_in_runtime_with_initializers():
    app = cdk8s.Testing.app()
    chart = Chart(app, "tune", namespace="team-nlp")
    hf_token = kplus.Secret.from_secret_name(chart, "HfToken", "hf-token")
    job = kf.TrainJob(
        chart,
        "alpaca",
        metadata=cdk8s.ApiObjectMetadata(name="alpaca"),
        runtime=kf.TrainingRuntimeRef.cluster("torchtune-llama3.2-1b"),
        dataset_initializer=kf.TrainJobInitializer(storage_uri="hf://tatsu-lab/alpaca"),
        model_initializer=kf.TrainJobInitializer(
            storage_uri="hf://meta-llama/Llama-3.2-1B-Instruct",
            secret=hf_token,
            env={"HF_HUB_DISABLE_PROGRESS_BARS": kplus.EnvValue.from_value("1")},
        ),
        resources_per_node=kf.Resources(accelerator=kf.Accelerator.nvidia(2)),
    )
    (manifest,) = cdk8s.Testing.synth(chart)
    assert manifest["kind"] == "TrainJob"
    assert manifest["metadata"] == {"name": "alpaca", "namespace": "team-nlp"}
    assert manifest["spec"] == {
        "runtimeRef": {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": "torchtune-llama3.2-1b"},
        "initializer": {
            "dataset": {"storageUri": "hf://tatsu-lab/alpaca"},
            "model": {
                "storageUri": "hf://meta-llama/Llama-3.2-1B-Instruct",
                "env": [{"name": "HF_HUB_DISABLE_PROGRESS_BARS", "value": "1"}],
                "secretRef": {"name": "hf-token"},
            },
        },
        "trainer": {"resourcesPerNode": {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}}},
        # The built-in runtime's pods have no tolerations: the GPU taint's, as on a v1 job, by the patch.
        "runtimePatches": [{
            "manager": "cdk8s-kubeflow/train-job",
            "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [{
                "name": "node",
                "template": {"spec": {"template": {"spec": {
                    "tolerations": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}],
                }}}},
            }]}}},
        }],
    }
    # A runtime by name: nothing of the app to depend on.
    assert (job.runtime.kind, job.runtime.name) == ("ClusterTrainingRuntime", "torchtune-llama3.2-1b")
    assert job.api_object.node.dependencies == []


def test_more_processes_than_gpus_is_refused_at_synth():
    app = cdk8s.Testing.app()
    chart = Chart(app, "bad")
    kf.TrainJob(
        chart,
        "job",
        runtime=kf.TrainingRuntimeRef.cluster("torch-distributed"),
        num_proc_per_node=8,
        resources_per_node=kf.Resources(accelerator=kf.Accelerator.nvidia(4)),
    )
    with pytest.raises(RuntimeError) as error:
        app.synth()
    # cdk8s's own message, with the "Error: " the jsii kernel puts before an error thrown in a method
    # call (it rethrows the error's string form); the library's own errors leave it out.
    assert str(error.value) == (
        "Error: Validation failed with the following errors:\n"
        "  [bad/job] numProcPerNode is 8; expected at most the 4 accelerators per node (one process per device)"
    )


@pytest.fixture(scope="module")
def docs_block(tmp_path_factory):
    """The block run as `python main.py` in an empty folder, in a child process (see test_docs.py)."""
    (code,) = python_blocks("test/bindings/python/test_trainer.py")
    workdir = tmp_path_factory.mktemp("trainer")
    (workdir / "main.py").write_text(code + "\n")
    subprocess.run([sys.executable, "main.py"], cwd=workdir, check=True)
    return workdir


def test_the_docs_block_writes_the_runtime_then_the_job(docs_block):
    assert sorted(p.name for p in (docs_block / "dist").iterdir()) == ["llm.k8s.yaml"]
    runtime, job = cdk8s.Yaml.load(str(docs_block / "dist" / "llm.k8s.yaml"))
    assert runtime["kind"] == "ClusterTrainingRuntime"
    assert runtime["metadata"] == {"name": "torch-h100", "labels": {"trainer.kubeflow.org/framework": "torch"}}
    (node,) = runtime["spec"]["template"]["spec"]["replicatedJobs"]
    (container,) = node["template"]["spec"]["template"]["spec"]["containers"]
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 8}
    assert job["kind"] == "TrainJob"
    assert job["metadata"] == {
        "name": "llama-sft",
        "namespace": "team-nlp",
        "labels": {"kueue.x-k8s.io/queue-name": "team-nlp"},
    }
    assert job["spec"] == {
        "runtimeRef": {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": "torch-h100"},
        "trainer": {"command": ["torchrun", "/workspace/sft.py"], "numNodes": 4},
    }
