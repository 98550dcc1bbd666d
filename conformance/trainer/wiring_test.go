package trainer

import (
	"context"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// wiringSet is one set of documents the wiring tests apply together: a runtime whose trainer step
// asks for two replicas, the same runtime kept away from the webhooks by its label, and TrainJobs
// that show the lookup through the fake client, the CRD defaults and the pruning at work.
const wiringSet = `
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: two-trainers
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          replicas: 2
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  containers: [{name: node, image: pytorch:1}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: two-trainers-unchecked
  namespace: ml
  labels: {trainer.kubeflow.org/webhook-validation: disabled}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          replicas: 2
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  containers: [{name: node, image: pytorch:1}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: missing-runtime
  namespace: ml
spec:
  runtimeRef: {name: no-such-runtime, kind: TrainingRuntime}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: defaulted-ref
  namespace: ml
spec:
  runtimeRef: {name: torch-distributed}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: unknown-field
  namespace: ml
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 2, gpus: 4}
`

// TestWiring proves each step on documents whose fate is known: the runtime webhook's own rule,
// the objectSelector, the runtime lookup through the client, the CRD defaults (without them the
// TrainJob webhook finds no runtime registry for an empty kind) and pruning.
func TestWiring(t *testing.T) {
	checker, _ := newChecker(t)
	docs, err := corpus.Decode("wiring", []byte(wiringSet))
	if err != nil {
		t.Fatal(err)
	}
	results, err := checker.Check(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	expected := []string{
		`wiring#0 ClusterTrainingRuntime (no namespace)/two-trainers: admission webhook "validator.clustertrainingruntime.trainer.kubeflow.org" denied the request: ` +
			`spec.template.spec.replicatedJobs[0].replicas: Invalid value: 2: always must be 1`,
		`wiring#1 TrainingRuntime ml/two-trainers-unchecked: skipped`,
		`wiring#2 TrainJob ml/missing-runtime: admission webhook "validator.trainjob.trainer.kubeflow.org" denied the request: ` +
			`spec.runtimeRef: Invalid value: {"name":"no-such-runtime","apiGroup":"trainer.kubeflow.org","kind":"TrainingRuntime"}: ` +
			`trainingruntimes.trainer.kubeflow.org "no-such-runtime" not found: specified trainingRuntime must be created before the TrainJob is created`,
		`wiring#3 TrainJob ml/defaulted-ref: accepted`,
		`wiring#4 TrainJob ml/unknown-field: the API server prunes fields not in the v2.3.0 CRD schema: [spec.trainer.gpus]`,
	}
	var got []string
	for _, r := range results {
		switch {
		case r.Skipped:
			got = append(got, r.Document.Label()+": skipped")
		case r.Accepted():
			got = append(got, r.Document.Label()+": accepted")
		default:
			got = append(got, r.Problem())
		}
	}
	if strings.Join(got, "\n") != strings.Join(expected, "\n") {
		t.Errorf("expected:\n  %s\ngot:\n  %s", strings.Join(expected, "\n  "), strings.Join(got, "\n  "))
	}
}
