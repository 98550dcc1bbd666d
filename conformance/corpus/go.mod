module github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus

go 1.24.0

require go.yaml.in/yaml/v3 v3.0.4
