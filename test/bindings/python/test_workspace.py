"""Notebooks v2: a WorkspaceKind and a Workspace through the Python package that jsii-pacmak built."""
import cdk8s
import cdk8s_plus_28 as kplus
import pytest
from cdk8s import Chart, Duration, Size

import cdk8s_kubeflow as kf

NOTEBOOK_SERVERS = "ghcr.io/kubeflow/kubeflow/notebook-servers"


def build():
    app = cdk8s.Testing.app()
    platform = Chart(app, "platform")
    kind = kf.WorkspaceKind(
        platform,
        "jupyterlab",
        metadata=cdk8s.ApiObjectMetadata(name="jupyterlab"),
        display_name="JupyterLab",
        description="JupyterLab with the SciPy or the PyTorch (CUDA) stack",
        icon=kf.SpawnerImage.from_url("https://jupyter.org/assets/favicons/apple-touch-icon-152x152.png"),
        ports=[kf.WorkspacePort(id="jupyterlab", display_name="JupyterLab")],
        env={"NB_PREFIX": kplus.EnvValue.from_value(kf.WorkspaceKind.http_path_prefix("jupyterlab"))},
        shared_memory=Size.gibibytes(2),
        activity_probe=kf.ActivityProbe.jupyter("jupyterlab"),
        activity_rules=[kf.ActivityRule(inactive_for=Duration.hours(8), min_running=Duration.minutes(30))],
    )
    kind.add_image_config(
        "jupyter-scipy:v1.10.0",
        display_name="SciPy",
        image=f"{NOTEBOOK_SERVERS}/jupyter-scipy:v1.10.0",
        ports=[kf.ImagePort(id="jupyterlab", port=8888)],
    )
    kind.add_pod_config(
        "gpu",
        display_name="One GPU",
        requests=kf.Resources(cpu=kplus.Cpu.units(4), memory=Size.gibibytes(32), accelerator=kf.Accelerator.nvidia(1)),
        limits=kf.Resources(memory=Size.gibibytes(32)),
    )

    team = Chart(app, "team", namespace="team-a")
    imagenet = kplus.PersistentVolumeClaim(
        team,
        "imagenet",
        metadata=cdk8s.ApiObjectMetadata(name="imagenet"),
        storage=Size.tebibytes(1),
        access_modes=[kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
    )
    workspace = kf.Workspace(
        team,
        "alice",
        metadata=cdk8s.ApiObjectMetadata(name="alice"),
        display_name="Alice's notebook",
        kind=kind,
        home=kf.WorkspaceClaim.new_claim(storage=Size.gibibytes(20)),
        data=[kf.DataVolume(mount_path="/data/imagenet", claim=kf.WorkspaceClaim.from_claim(imagenet), read_only=True)],
    )
    return kind, workspace, cdk8s.Testing.synth(platform), cdk8s.Testing.synth(team)


@pytest.fixture(scope="module")
def built():
    return build()


def by_kind(manifests, kind):
    return [m for m in manifests if m["kind"] == kind]


def test_workspace_kind(built):
    _, _, platform, _ = built
    (kind,) = by_kind(platform, "WorkspaceKind")
    assert kind["apiVersion"] == "kubeflow.org/v1beta1"
    assert kind["metadata"]["name"] == "jupyterlab"
    assert "namespace" not in kind["metadata"]
    spec = kind["spec"]
    assert spec["spawner"]["displayName"] == "JupyterLab"
    image_values = spec["podTemplate"]["options"]["imageConfig"]["values"]
    assert [v["id"] for v in image_values] == ["jupyter-scipy:v1.10.0"]
    assert image_values[0]["spec"]["image"] == f"{NOTEBOOK_SERVERS}/jupyter-scipy:v1.10.0"
    assert image_values[0]["spec"]["ports"] == [{"id": "jupyterlab", "port": 8888}]
    pod_values = spec["podTemplate"]["options"]["podConfig"]["values"]
    resources = pod_values[0]["spec"]["resources"]
    assert resources["limits"]["nvidia.com/gpu"] == resources["requests"]["nvidia.com/gpu"] == 1


def test_workspace(built):
    _, workspace, _, team = built
    (ws,) = by_kind(team, "Workspace")
    assert ws["apiVersion"] == "kubeflow.org/v1beta1"
    assert ws["metadata"] == {"name": "alice", "namespace": "team-a"}
    spec = ws["spec"]
    assert spec["kind"] == "jupyterlab"
    assert spec["paused"] is False
    assert spec["podTemplate"]["options"] == {"imageConfig": "jupyter-scipy:v1.10.0", "podConfig": "gpu"}
    volumes = spec["podTemplate"]["volumes"]
    assert volumes["home"] == "alice-home"
    assert volumes["data"] == [{"pvcName": "imagenet", "mountPath": "/data/imagenet", "readOnly": True}]
    claims = {c["metadata"]["name"]: c for c in by_kind(team, "PersistentVolumeClaim")}
    assert claims["alice-home"]["spec"]["resources"]["requests"]["storage"] == "20Gi"
    assert claims["alice-home"]["metadata"]["namespace"] == "team-a"
    # Python properties of the constructs.
    assert workspace.name == "alice"
    assert workspace.home_claim_name == "alice-home"
    assert workspace.image_config == "jupyter-scipy:v1.10.0"
    assert workspace.kind.name == "jupyterlab"


def test_workspace_kind_properties(built):
    kind, _, _, _ = built
    assert kind.home_mount_path == "/home/jovyan"
    assert kind.image_config_ids == ["jupyter-scipy:v1.10.0"]
    assert kind.pod_config_ids == ["gpu"]
    assert kind.default_pod_config == "gpu"


def test_validation_reaches_python():
    app = cdk8s.Testing.app()
    chart = Chart(app, "team", namespace="team-a")
    with pytest.raises(Exception, match="imageConfig"):
        kf.Workspace(chart, "w", kind=kf.WorkspaceKind.from_name("jupyterlab"), pod_config="cpu")
