// Tests the Go module that jsii-pacmak built (test/bindings/run.sh). The module under test and
// the cdk8s and cdk8s-plus-28 modules come from dist-packages/go: the Go module proxy does not serve
// github.com/cdk8s-team/cdk8s-core-go or cdk8s-plus-go to this project, so run.sh generates them
// with pacmak from the npm packages in node_modules (the same versions as package.json).
module github.com/cdk8s-kubeflow/cdk8s-kubeflow/test/bindings/go

go 1.25.0

require (
	github.com/aws/constructs-go/constructs/v10 v10.3.0
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-kubeflow/cdk8s-kubeflow-go/cdk8skubeflow v0.0.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.0
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v2.5.6
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/yuin/goldmark v1.7.16 // indirect
	golang.org/x/lint v0.0.0-20241112194109-818c5a804067 // indirect
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/telemetry v0.0.0-20260811182544-a038080d80e5 // indirect
	golang.org/x/tools v0.49.0 // indirect
	golang.org/x/tools/cmd/godoc v0.1.0-deprecated // indirect
	golang.org/x/tools/godoc v0.1.0-deprecated // indirect
)

replace (
	github.com/cdk8s-kubeflow/cdk8s-kubeflow-go/cdk8skubeflow => ../../../dist-packages/go/cdk8skubeflow
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 => ../../../dist-packages/go/cdk8s
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 => ../../../dist-packages/go/cdk8splus28
)
