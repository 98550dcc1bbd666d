module github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus

go 1.24.0

require sigs.k8s.io/yaml v1.6.0

require go.yaml.in/yaml/v2 v2.4.2 // indirect
