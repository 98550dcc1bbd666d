"""Config-driven props from Python: what a Python user sees for a plain string where an enum-like
class is expected, and the parse functions that are the way in from a configuration file.

jsii's generated Python checks every argument's type (typeguard) before the call reaches the
library, and the jsii kernel checks it again on the way in, so the library's own check of a string
given for RestartPolicy never runs from Python: the TypeError below is typeguard's. The parse
functions take the string and give the library's message, naming the config key.
"""
import cdk8s
import pytest
from cdk8s import Chart

import cdk8s_kubeflow as kf


def chart():
    return Chart(cdk8s.Testing.app(), "test")


def test_a_plain_string_for_an_enum_like_class_is_refused_by_python_first():
    with pytest.raises(TypeError) as error:
        kf.DistributedPyTorch(chart(), "job", image="train:1", restart_policy="OnFailure")
    assert str(error.value) == (
        "type of argument restart_policy must be one of (cdk8s_kubeflow.RestartPolicy, NoneType); got str instead"
    )


def test_a_misspelt_keyword_is_refused_by_python_itself():
    with pytest.raises(TypeError) as error:
        kf.DistributedPyTorch(chart(), "job", image="train:1", wrkers=3)
    assert "unexpected keyword argument 'wrkers'" in str(error.value)


def test_parse_gives_the_library_message_with_the_config_key():
    with pytest.raises(RuntimeError) as error:
        kf.RestartPolicy.parse("OnFailre", "workers.restartPolicy")
    assert str(error.value) == (
        'RestartPolicy.parse: workers.restartPolicy is "OnFailre"; expected "Always", "OnFailure", "Never" or "ExitCode", '
        "the values training-operator v1.9.4 knows (for a newer operator's value, use RestartPolicy.of(value) and list the value "
        'in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"): did you mean "OnFailure"?'
    )
    # What Python prints first, the cause jsii chains to it: the jsii kernel wraps an error thrown in
    # a method call in its own, whose text is the library's message (util/user-error.ts), then the
    # kernel's frames.
    assert error.value.__cause__.stack.startswith("@jsii/kernel.RuntimeError: RestartPolicy.parse: workers.restartPolicy is ")
    with pytest.raises(RuntimeError) as error:
        kf.Parse.size("64G", "resources.memory")
    assert str(error.value) == (
        'Parse.size: resources.memory is "64G"; expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, '
        'such as "512Mi" or "16Gi": did you mean "64Gi"?'
    )


def test_parsed_values_build_a_job():
    app = cdk8s.Testing.app()
    c = Chart(app, "test")
    kf.DistributedPyTorch(
        c,
        "job",
        metadata=cdk8s.ApiObjectMetadata(name="resnet"),
        image="train:1",
        workers=2,
        restart_policy=kf.RestartPolicy.parse("OnFailure", "restartPolicy"),
        resources=kf.Resources(
            memory=kf.Parse.size("16Gi", "memory"),
            accelerator=kf.Accelerator.parse("nvidia.com/gpu", 2, "accelerator"),
        ),
        run_policy=kf.RunPolicy(
            clean_pod_policy=kf.CleanPodPolicy.parse("Running", "cleanPodPolicy"),
            ttl_after_finished=kf.Parse.duration("1d", "ttlAfterFinished"),
        ),
    )
    [job] = cdk8s.Testing.synth(c)
    worker = job["spec"]["pytorchReplicaSpecs"]["Worker"]
    assert worker["restartPolicy"] == "OnFailure"
    assert worker["template"]["spec"]["containers"][0]["resources"]["limits"] == {"memory": "16Gi", "nvidia.com/gpu": 2}
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "Running", "ttlSecondsAfterFinished": 86400}
