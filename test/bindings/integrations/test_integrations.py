"""The Pulumi and AWS CDK snippets of docs/bindings.md, run as written in a child process each.

Pulumi runs under its unit-test mocks (pulumi_mocks.py): that checks the program against the
pulumi-kubernetes API and shows what the ConfigGroups receive, without a cluster. The AWS CDK app
synthesizes offline into cdk.out, and the test reads the manifests out of the CloudFormation
template.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from docsnippets import python_blocks  # noqa: E402

CHECKER = "test/bindings/integrations/test_integrations.py"


def snippet(marker):
    """The checked block whose code contains `marker`."""
    (code,) = [b for b in python_blocks(CHECKER) if marker in b]
    return code


def assert_reference_job(job):
    assert job["kind"] == "PyTorchJob"
    assert job["metadata"]["name"] == "resnet"
    assert job["metadata"]["namespace"] == "team-a"
    assert job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "team-a"
    specs = job["spec"]["pytorchReplicaSpecs"]
    assert (specs["Master"]["replicas"], specs["Worker"]["replicas"]) == (1, 2)
    for role in ("Master", "Worker"):
        (container,) = specs[role]["template"]["spec"]["containers"]
        assert container["resources"]["limits"] == {"nvidia.com/gpu": 1}
        assert container["resources"]["requests"] == {"nvidia.com/gpu": 1}


@pytest.fixture(scope="module")
def pulumi_resources(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("pulumi")
    (workdir / "__main__.py").write_text(snippet("pulumi_kubernetes") + "\n")
    out = subprocess.run([sys.executable, os.path.join(HERE, "pulumi_mocks.py"), "__main__.py"],
                         cwd=workdir, check=True, capture_output=True, text=True)
    return {r["name"]: r for r in json.loads(out.stdout)}


def test_pulumi_config_group_from_the_app(pulumi_resources):
    training = pulumi_resources["training"]
    assert training["type"] == "kubernetes:yaml/v2:ConfigGroup"
    (job,) = list(yaml.safe_load_all(training["inputs"]["yaml"]))
    assert_reference_job(job)


def test_pulumi_config_group_from_files(pulumi_resources):
    examples = pulumi_resources["examples"]
    assert examples["type"] == "kubernetes:yaml/v2:ConfigGroup"
    assert examples["inputs"]["files"] == ["dist/*.k8s.yaml"]


@pytest.fixture(scope="module")
def cdk_template(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("awscdk")
    (workdir / "app.py").write_text(snippet("add_cdk8s_chart") + "\n")
    # `cdk synth` runs the app with CDK_OUTDIR set; without it the app writes to a temporary folder.
    env = {**os.environ, "CDK_OUTDIR": str(workdir / "cdk.out")}
    subprocess.run([sys.executable, "app.py"], cwd=workdir, env=env, check=True)
    template = json.loads((workdir / "cdk.out" / "MlPlatform.template.json").read_text())
    shutil.rmtree(workdir / "cdk.out")  # tens of MB of kubectl and awscli assets
    return template


def test_aws_cdk_add_cdk8s_chart(cdk_template):
    manifests = [r for r in cdk_template["Resources"].values() if r["Type"] == "Custom::AWSCDK-EKS-KubernetesResource"]
    jobs = []
    for resource in manifests:
        manifest = resource["Properties"]["Manifest"]
        assert isinstance(manifest, str), manifest
        jobs += [m for m in json.loads(manifest) if m["kind"] == "PyTorchJob"]
    (job,) = jobs
    assert_reference_job(job)
