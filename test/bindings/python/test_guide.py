"""Follows docs/python.md literally: every block marked `<!-- python-guide: run -->` is run and every
block marked `<!-- python-guide: file <path> -->` is written, in page order, in one shell inside a
temporary folder of the system's, with `WHEEL` set to the wheel this run of the bindings test built.
Then it makes the guide's mistake and checks what Python prints against the page, and runs the
guide's CI workflow on the committed output (passes) and after a code change without a new synth
(fails).

Offline: pip gets `PIP_NO_INDEX=1` and `PIP_FIND_LINKS` pointing at the wheel folder that
test/bindings/run.sh fills once per set of pins (CDK8S_KUBEFLOW_WHEELHOUSE), and npm gets
`npm_config_offline=true` (the lint step installs the npm packages the venv's wheels carry). Node
is the Node.js 24 binary run.sh fetched (CDK8S_KUBEFLOW_GUIDE_NODE), first on PATH, and no jsii
banner is silenced: a supported Node must print none.
"""
import os
import pathlib
import re
import shutil
import subprocess

import cdk8s
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
GUIDE = (ROOT / "docs" / "python.md").read_text()

_BLOCK = re.compile(r"^<!-- python-guide: (run|file (\S+)) -->\n```[^\n]*\n(.*?)^```$", re.S | re.M)


def blocks():
    return [(m.group(2) or "run", m.group(3)) for m in _BLOCK.finditer(GUIDE)]


def script(all_blocks):
    """The guide as one bash script: run blocks as they are, file blocks as quoted here-documents."""
    steps = [
        code if kind == "run" else f"mkdir -p \"$(dirname '{kind}')\"\ncat > '{kind}' <<'PYTHON_GUIDE_FILE'\n{code}PYTHON_GUIDE_FILE\n"
        for kind, code in all_blocks
    ]
    return "\n".join(["set -euo pipefail", *steps])


def required_env(name, what):
    value = os.environ.get(name)
    assert value, f"{name} is not set: run this test through test/bindings/run.sh ({what})"
    return value


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    path = tmp_path_factory.mktemp("python-guide")
    (path / "home").mkdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def env(work):
    """A new user's shell: no jsii silencing, a home of its own, pip and npm offline, Node.js 24 first."""
    node = required_env("CDK8S_KUBEFLOW_GUIDE_NODE", "the folder of a Node.js 24 binary")
    wheels = required_env("CDK8S_KUBEFLOW_WHEELHOUSE", "the wheels pip may install from")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("JSII_", "npm_", "PIP_", "VIRTUAL_ENV", "PYTHON"))}
    return {
        **base,
        "PATH": f"{node}{os.pathsep}{base['PATH']}",
        "HOME": str(work / "home"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": wheels,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "npm_config_offline": "true",
        "npm_config_cache": str(work / "home" / ".npm"),
        "npm_config_update_notifier": "false",
        "RUNNER_TEMP": str(work / "runner-temp"),
        "GIT_AUTHOR_NAME": "python guide test",
        "GIT_AUTHOR_EMAIL": "python-guide@example.com",
        "GIT_COMMITTER_NAME": "python guide test",
        "GIT_COMMITTER_EMAIL": "python-guide@example.com",
    }


def bash(code, cwd, env):
    return subprocess.run(["bash", "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_the_guide_marks_its_steps_and_files():
    assert [kind for kind, _ in blocks()] == [
        "run", "requirements.txt", ".gitignore", "run", "main.py", "run", ".github/workflows/manifests.yaml",
    ]


@pytest.fixture(scope="module")
def app(work, env):
    wheel = required_env("CDK8S_KUBEFLOW_WHEEL", "the wheel to install")
    result = bash(script(blocks()), work, {**env, "WHEEL": wheel})
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    # pip is quiet and the app writes its files without a word: no banner, no notice.
    assert result.stdout == ""
    return work / "ml-jobs"


def load(app, name):
    return cdk8s.Yaml.load(str(app / "dist" / name))


def test_node_24_is_the_one_that_ran(app, env):
    assert bash("node --version", app, env).stdout.startswith("v24.")


def test_writes_one_file_per_chart(app):
    assert sorted(p.name for p in (app / "dist").iterdir()) == ["llm.k8s.yaml", "notebooks.k8s.yaml", "training.k8s.yaml"]


def test_the_yaml_head_the_guide_shows(app):
    shown = re.search(r"The first starts:\n\n```yaml\n(.*?)```", GUIDE, re.S).group(1)
    assert (app / "dist" / "training.k8s.yaml").read_text().startswith(shown)


def test_the_pytorch_job(app):
    (job,) = load(app, "training.k8s.yaml")
    assert (job["apiVersion"], job["kind"], job["metadata"]["namespace"], job["metadata"]["name"]) == (
        "kubeflow.org/v1", "PyTorchJob", "team-vision", "resnet")
    spec = job["spec"]
    assert spec["nprocPerNode"] == "1"
    assert spec["runPolicy"] == {"cleanPodPolicy": "Running"}
    for role, replicas in (("Master", 1), ("Worker", 2)):
        replica = spec["pytorchReplicaSpecs"][role]
        assert replica["replicas"] == replicas
        (container,) = replica["template"]["spec"]["containers"]
        assert container["name"] == "pytorch"
        assert container["command"] == ["torchrun", "/workspace/train.py"]
        assert container["resources"]["limits"] == {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": 1}
        assert container["resources"]["requests"] == container["resources"]["limits"]
        assert {"emptyDir": {"medium": "Memory", "sizeLimit": "2048Mi"}, "name": "dshm"} in replica["template"]["spec"]["volumes"]


def test_the_runtime_before_the_train_job(app):
    runtime, job = load(app, "llm.k8s.yaml")
    assert (runtime["apiVersion"], runtime["kind"], runtime["metadata"]["name"]) == (
        "trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime", "torch-h100")
    assert "namespace" not in runtime["metadata"]
    assert runtime["spec"]["mlPolicy"] == {"numNodes": 1, "torch": {}}
    assert (job["kind"], job["metadata"]["namespace"], job["metadata"]["name"]) == ("TrainJob", "team-nlp", "llama-sft")
    assert job["spec"]["runtimeRef"] == {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": "torch-h100"}
    assert job["spec"]["trainer"]["numNodes"] == 4
    assert job["spec"]["trainer"]["command"] == ["torchrun", "/workspace/sft.py"]


def test_the_workspace_kind_and_workspace(app):
    objects = load(app, "notebooks.k8s.yaml")
    by_kind = {o["kind"]: o for o in objects}
    assert sorted(by_kind) == ["PersistentVolumeClaim", "Workspace", "WorkspaceKind"]
    kind = by_kind["WorkspaceKind"]
    assert (kind["apiVersion"], kind["metadata"]["name"]) == ("kubeflow.org/v1beta1", "jupyterlab")
    assert "namespace" not in kind["metadata"]
    assert [o["id"] for o in kind["spec"]["podTemplate"]["options"]["podConfig"]["values"]] == ["gpu"]
    workspace = by_kind["Workspace"]
    assert (workspace["metadata"]["namespace"], workspace["metadata"]["name"]) == ("team-vision", "alice")
    assert workspace["spec"]["kind"] == "jupyterlab"
    assert workspace["spec"]["podTemplate"]["options"]["podConfig"] == "gpu"
    claim = by_kind["PersistentVolumeClaim"]
    assert workspace["spec"]["podTemplate"]["volumes"]["home"] == claim["metadata"]["name"] == "alice-home"
    assert claim["spec"]["resources"]["requests"] == {"storage": "20Gi"}
    assert {"pvcName": "imagenet", "mountPath": "/data/imagenet", "readOnly": True} in workspace["spec"]["podTemplate"]["volumes"]["data"]


def test_the_mistake_prints_the_library_message_first(app, env):
    marker = re.search(r"<!-- python-guide: mistake (\S+) -> (\S+) -->\n```text\n(.*?)```", GUIDE, re.S)
    good_text, bad_text, shown = marker.group(1), marker.group(2), marker.group(3)
    main = app / "main.py"
    good = main.read_text()
    assert good.count(good_text + ",") == 1
    main.write_text(good.replace(good_text + ",", bad_text + ","))
    try:
        result = bash(".venv/bin/python main.py", app, env)
    finally:
        main.write_text(good)
    assert (result.returncode, result.stdout) == (1, "")
    # The page shows the head (up to the user's line) and the last line; `...` stands for the rest.
    head, tail = shown.split("  ...\n")
    head = head.replace(".../ml-jobs/", f"{app}/")
    assert result.stderr.startswith(head)
    assert result.stderr.endswith(tail)
    # No JavaScript frame anywhere: what Python prints is the message, Python's traceback and the message.
    assert not re.search(r"^\s+at ", result.stderr, re.M)
    # A failed run leaves the committed dist/ alone (the error comes before shutil.rmtree).
    assert bash("git status --porcelain dist/", app, env).stdout == ""


def ci_steps(app, env):
    workflow = cdk8s.Yaml.load(str(app / ".github" / "workflows" / "manifests.yaml"))[0]
    results = []
    for step in workflow["jobs"]["synth"]["steps"]:
        if "run" not in step:
            continue
        result = bash("set -eo pipefail\n" + step["run"], app, env)
        results.append(result)
        if result.returncode != 0:
            break
    return results


def test_the_ci_steps_pass_on_the_committed_output(app, env):
    results = ci_steps(app, env)
    assert [r.returncode for r in results] == [0, 0, 0], "\n".join(r.stdout + r.stderr for r in results)
    lint = results[2]
    assert lint.stderr == ""
    shown = re.search(r"On the commit above it prints:\n\n```text\n(.*?)```", GUIDE, re.S).group(1)
    assert lint.stdout == shown


def test_the_ci_steps_fail_when_dist_is_stale(app, env):
    main = app / "main.py"
    good = main.read_text()
    main.write_text(good.replace("workers=2,", "workers=3,"))
    try:
        results = ci_steps(app, env)
    finally:
        main.write_text(good)
        bash("git checkout -- dist", app, env)
    assert [r.returncode for r in results] == [0, 1]
    assert re.search(r"^-\s+replicas: 2\n\+\s+replicas: 3$", results[1].stdout, re.M)
