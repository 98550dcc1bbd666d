package trainer

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// jobSetSet is applied together by TestJobSetWebhooks: a runtime the Trainer's webhook accepts
// whose first replicated job depends on another (the JobSet webhook's rule, not the Trainer's),
// a TrainJob of it, a TrainJob of a built-in runtime and one whose name makes job names over 63
// characters.
const jobSetSet = `
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: first-depends
  namespace: ml
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          dependsOn: [{name: init, status: Complete}]
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  containers: [{name: node, image: pytorch:1}]
        - name: init
          template:
            spec:
              template:
                spec:
                  containers: [{name: init, image: busybox:1}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: of-first-depends
  namespace: ml
spec:
  runtimeRef: {name: first-depends, kind: TrainingRuntime}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: torch
  namespace: ml
spec:
  runtimeRef: {name: torch-distributed}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: a-train-job-name-long-enough-that-its-job-names-pass-63-chars
  namespace: ml
spec:
  runtimeRef: {name: torch-distributed}
`

// TestJobSetWebhooks proves the JobSet webhooks are called on the JobSet the Trainer builds: the
// validator's refusals reach the result with its message, and an accepted JobSet is the defaulter's
// output (the success policy it adds is in the stored object).
func TestJobSetWebhooks(t *testing.T) {
	checker, _ := newChecker(t)
	docs, err := corpus.Decode("jobset", []byte(jobSetSet))
	if err != nil {
		t.Fatal(err)
	}
	results, err := checker.Check(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	expected := []string{
		`jobset#0 TrainingRuntime ml/first-depends: no JobSet built`,
		`jobset#1 TrainJob ml/of-first-depends: the built JobSet: admission webhook "vjobset.kb.io" denied the request: ` +
			`JobSet.jobset.x-k8s.io "of-first-depends" is invalid: [<nil>: Internal error: DependsOn can't be set for the first ReplicatedJob, ` +
			`<nil>: Internal error: replicatedJob: node cannot depend on replicatedJob: init]`,
		`jobset#2 TrainJob ml/torch: JobSet accepted`,
		`jobset#3 TrainJob ml/a-train-job-name-long-enough-that-its-job-names-pass-63-chars: the built JobSet: admission webhook "vjobset.kb.io" denied the request: ` +
			`JobSet.jobset.x-k8s.io "a-train-job-name-long-enough-that-its-job-names-pass-63-chars" is invalid: [` +
			`spec.replicatedJobs[0].name: Invalid value: "a-train-job-name-long-enough-that-its-job-names-pass-63-chars-node-0": JobSet name is too long, job names generated for this JobSet will exceed 63 characters, ` +
			`spec.replicatedJobs[0].name: Invalid value: "a-train-job-name-long-enough-that-its-job-names-pass-63-chars-node-0": JobSet name is too long, pod names generated for this JobSet will exceed 63 characters]`,
	}
	var got []string
	for _, r := range results {
		switch {
		case !r.Accepted():
			got = append(got, r.Problem())
		case r.BuildError != nil:
			got = append(got, r.Document.Label()+": "+r.BuildError.Error())
		case r.JobSet == nil:
			got = append(got, r.Document.Label()+": no JobSet built")
		case r.JobSet.Allowed:
			got = append(got, r.Document.Label()+": JobSet accepted")
		default:
			got = append(got, r.JobSetProblem())
		}
	}
	if strings.Join(got, "\n") != strings.Join(expected, "\n") {
		t.Errorf("expected:\n  %s\ngot:\n  %s", strings.Join(expected, "\n  "), strings.Join(got, "\n  "))
	}
	if len(results) != 4 || results[2].JobSet == nil {
		t.Fatal("the built-in runtime's TrainJob has no JobSet verdict")
	}
	var stored struct {
		Spec struct {
			SuccessPolicy *struct {
				Operator string `json:"operator"`
			} `json:"successPolicy"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(results[2].JobSet.Object, &stored); err != nil {
		t.Fatal(err)
	}
	if stored.Spec.SuccessPolicy == nil || stored.Spec.SuccessPolicy.Operator != "All" {
		t.Errorf("the stored JobSet's successPolicy is %+v; the JobSet defaulter sets operator All", stored.Spec.SuccessPolicy)
	}
}

// TestProbeTrainJob proves the leaf fuzz's probe reaches a runtime's JobSet: the runtime above,
// which its own webhook accepts, gets the JobSet webhook's refusal through the probe.
func TestProbeTrainJob(t *testing.T) {
	checker, _ := newChecker(t)
	docs, err := corpus.Decode("jobset", []byte(jobSetSet))
	if err != nil {
		t.Fatal(err)
	}
	results, err := checker.Check(context.Background(), []corpus.Document{docs[0], probeTrainJob(docs[0])})
	if err != nil {
		t.Fatal(err)
	}
	trainerErrs, jobsetErrs := problems(results)
	expected := `jobset#1 TrainJob ml/probe: the built JobSet: admission webhook "vjobset.kb.io" denied the request: ` +
		`JobSet.jobset.x-k8s.io "probe" is invalid: [<nil>: Internal error: DependsOn can't be set for the first ReplicatedJob, ` +
		`<nil>: Internal error: replicatedJob: node cannot depend on replicatedJob: init]`
	if len(trainerErrs) != 0 || len(jobsetErrs) != 1 || jobsetErrs[0] != expected {
		t.Errorf("expected no Trainer error and the JobSet webhook's\n  %s\ngot %q and %q", expected, trainerErrs, jobsetErrs)
	}
}
