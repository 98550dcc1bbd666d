"""The Python quick start of README.md and docs/bindings.md (the same block), run as written (`python main.py` in an empty folder),
and what it writes to dist/.

It runs in a child process: the jsii kernel under this one keeps the folder pytest started in, so an
app synthesized here would write to the project's own dist/.
"""
import os
import subprocess
import sys

import cdk8s
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from docsnippets import python_blocks  # noqa: E402


BLOCKS = python_blocks("test/bindings/python/test_docs.py")


def test_the_readme_and_the_bindings_page_show_the_same_quick_start():
    assert len(BLOCKS) == 2 and BLOCKS[0] == BLOCKS[1]


@pytest.fixture(scope="module")
def quick_start(tmp_path_factory):
    code = BLOCKS[0]
    workdir = tmp_path_factory.mktemp("quickstart")
    (workdir / "main.py").write_text(code + "\n")
    subprocess.run([sys.executable, "main.py"], cwd=workdir, check=True)
    return workdir


def test_writes_the_chart(quick_start):
    files = sorted(p.name for p in (quick_start / "dist").iterdir())
    assert files == ["vision.k8s.yaml"]


def test_the_job(quick_start):
    (job,) = cdk8s.Yaml.load(str(quick_start / "dist" / "vision.k8s.yaml"))
    assert job["kind"] == "PyTorchJob"
    assert job["metadata"]["namespace"] == "team-vision"
    assert job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "team-vision"
    spec = job["spec"]
    assert spec["nprocPerNode"] == "2"
    assert spec["runPolicy"] == {"cleanPodPolicy": "Running"}
    master, worker = spec["pytorchReplicaSpecs"]["Master"], spec["pytorchReplicaSpecs"]["Worker"]
    assert (master["replicas"], worker["replicas"]) == (1, 3)
    container = worker["template"]["spec"]["containers"][0]
    assert container["resources"]["limits"] == {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": 2}
    assert container["resources"]["requests"] == container["resources"]["limits"]
    assert {"mountPath": "/data", "name": "pvc-imagenet", "readOnly": True} in container["volumeMounts"]
    spot = {"key": "spot", "operator": "Exists", "effect": "NoSchedule"}
    assert spot in worker["template"]["spec"]["tolerations"]
    assert spot not in master["template"]["spec"].get("tolerations", [])
