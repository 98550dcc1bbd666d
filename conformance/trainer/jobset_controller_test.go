package trainer

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// storedJobSet is a JobSet as the JobSet defaulting webhook leaves it: an initializer job that the
// node job waits on (dependsOn Complete, as the Trainer's runtimes with initializers have it), the
// node job with 3 Indexed pods, DNS hostnames on.
const storedJobSet = `{
  "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
  "metadata": {"name": "tune", "namespace": "ml", "labels": {"team": "nlp"}},
  "spec": {
    "network": {"enableDNSHostnames": true, "publishNotReadyAddresses": true},
    "successPolicy": {"operator": "All", "targetReplicatedJobs": ["node"]},
    "startupPolicy": {"startupPolicyOrder": "AnyOrder"},
    "replicatedJobs": [
      {"name": "dataset-initializer", "replicas": 1, "template": {
        "metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "dataset-initializer"}},
        "spec": {"completionMode": "Indexed", "parallelism": 1, "completions": 1, "template": {"spec": {
          "restartPolicy": "OnFailure", "containers": [{"name": "dataset-initializer", "image": "init:1"}]}}}}},
      {"name": "node", "replicas": 1, "dependsOn": [{"name": "dataset-initializer", "status": "Complete"}], "template": {
        "metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
        "spec": {"completionMode": "Indexed", "parallelism": 3, "completions": 3, "template": {
          "metadata": {"labels": {"app": "tune"}},
          "spec": {"restartPolicy": "OnFailure", "containers": [{"name": "node", "image": "train:1", "env": [{"name": "A", "value": "1"}]}]}}}}}
    ]
  }
}`

// TestJobSetDerivedWiring shows what each step adds on a JobSet whose result is known: the JobSet
// controller's Service and Jobs (both replicated jobs, the dependent one after the job it waits
// on completes), then the Job controller's pods of the first and last index.
func TestJobSetDerivedWiring(t *testing.T) {
	records, err := JobSetDerived(context.Background(), "wiring", []byte(storedJobSet))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range records {
		meta := corpus.Map(r.Object["metadata"])
		name, _ := meta["name"].(string)
		if name == "" {
			name = "generateName " + fmt.Sprint(meta["generateName"])
		}
		got = append(got, r.Kind+" "+name)
	}
	want := []string{
		"Service tune",
		"Job tune-dataset-initializer-0", "Pod generateName tune-dataset-initializer-0-0-",
		"Job tune-node-0", "Pod generateName tune-node-0-0-", "Pod generateName tune-node-0-2-",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("derived objects:\n  %v\nwant\n  %v", got, want)
	}
	for _, r := range records {
		if r.Controller != JobSetController || r.From != "wiring" {
			t.Errorf("record %s: controller %q from %q", r.Kind, r.Controller, r.From)
		}
	}
	job := records[3].Object
	jobLabels := corpus.Map(corpus.Map(job["metadata"])["labels"])
	for k, v := range map[string]string{
		"jobset.sigs.k8s.io/jobset-name":              "tune",
		"jobset.sigs.k8s.io/replicatedjob-name":       "node",
		"jobset.sigs.k8s.io/job-index":                "0",
		"trainer.kubeflow.org/trainjob-ancestor-step": "trainer",
	} {
		if jobLabels[k] != v {
			t.Errorf("Job label %s = %v, want %q", k, jobLabels[k], v)
		}
	}
	if _, ok := jobLabels["team"]; ok {
		t.Errorf("the JobSet's own labels are not the Jobs': %v", jobLabels)
	}
	spec := corpus.Map(job["spec"])
	if spec["suspend"] != false || corpus.Map(corpus.Map(spec["template"])["spec"])["subdomain"] != "tune" {
		t.Errorf("Job spec: suspend %v, subdomain %v", spec["suspend"], corpus.Map(corpus.Map(spec["template"])["spec"])["subdomain"])
	}
	if _, ok := spec["selector"]; ok {
		t.Errorf("the JobSet controller sends no selector; the API server generates it: %v", spec["selector"])
	}
	last := records[5].Object
	meta := corpus.Map(last["metadata"])
	labels := corpus.Map(meta["labels"])
	annotations := corpus.Map(meta["annotations"])
	for k, v := range map[string]string{
		"batch.kubernetes.io/job-completion-index": "2",
		"batch.kubernetes.io/job-name":             "tune-node-0",
		"job-name":                                 "tune-node-0",
		"app":                                      "tune",
	} {
		if labels[k] != v {
			t.Errorf("Pod label %s = %v, want %q", k, labels[k], v)
		}
	}
	if annotations["batch.kubernetes.io/job-completion-index"] != "2" || labels["batch.kubernetes.io/controller-uid"] != labels["controller-uid"] {
		t.Errorf("Pod index annotation %v, controller-uid labels %v / %v", annotations["batch.kubernetes.io/job-completion-index"], labels["batch.kubernetes.io/controller-uid"], labels["controller-uid"])
	}
	podSpec := corpus.Map(last["spec"])
	if podSpec["hostname"] != "tune-node-0-2" || podSpec["subdomain"] != "tune" {
		t.Errorf("Pod hostname %v, subdomain %v", podSpec["hostname"], podSpec["subdomain"])
	}
	env, _ := json.Marshal(corpus.Map(podSpec["containers"].([]any)[0])["env"])
	wantEnv := `[{"name":"A","value":"1"},{"name":"JOB_COMPLETION_INDEX","valueFrom":{"fieldRef":{"fieldPath":"metadata.labels['batch.kubernetes.io/job-completion-index']"}}}]`
	if string(env) != wantEnv {
		t.Errorf("Pod env %s\nwant %s", env, wantEnv)
	}
	if fmt.Sprint(meta["finalizers"]) != "[batch.kubernetes.io/job-tracking]" {
		t.Errorf("Pod finalizers %v", meta["finalizers"])
	}
}

// TestJobSetDerivedSuspended: a suspended JobSet (a TrainJob queued by Kueue) still gets its Jobs,
// suspended; their pods are built as the Job controller makes them once the Jobs resume.
func TestJobSetDerivedSuspended(t *testing.T) {
	var js map[string]any
	if err := json.Unmarshal([]byte(storedJobSet), &js); err != nil {
		t.Fatal(err)
	}
	corpus.Map(js["spec"])["suspend"] = true
	raw, _ := json.Marshal(js)
	records, err := JobSetDerived(context.Background(), "suspended", raw)
	if err != nil {
		t.Fatal(err)
	}
	jobs := 0
	for _, r := range records {
		if r.Kind == "Job" {
			jobs++
			if corpus.Map(r.Object["spec"])["suspend"] != true {
				t.Errorf("%v: not suspended", corpus.Map(r.Object["metadata"])["name"])
			}
		}
	}
	if jobs != 2 {
		t.Errorf("%d Jobs, want 2", jobs)
	}
}

// TestJobSetDerivedExclusivePlacement: the JobSet's pod webhook gives the leader pod of an
// exclusive-placement JobSet its affinities, keyed by the annotation's topology; followers wait for
// their leader's node, which no run here has.
func TestJobSetDerivedExclusivePlacement(t *testing.T) {
	var js map[string]any
	if err := json.Unmarshal([]byte(storedJobSet), &js); err != nil {
		t.Fatal(err)
	}
	corpus.Map(js["metadata"])["annotations"] = map[string]any{"alpha.jobset.sigs.k8s.io/exclusive-topology": "example.com/rack"}
	raw, _ := json.Marshal(js)
	records, err := JobSetDerived(context.Background(), "exclusive", raw)
	if err != nil {
		t.Fatal(err)
	}
	leader, follower := records[4].Object, records[5].Object
	affinity, _ := json.Marshal(corpus.Map(leader["spec"])["affinity"])
	for _, want := range []string{`"podAffinity"`, `"podAntiAffinity"`, `"topologyKey":"example.com/rack"`} {
		if !strings.Contains(string(affinity), want) {
			t.Errorf("leader affinity %s: no %s", affinity, want)
		}
	}
	if a := corpus.Map(follower["spec"])["affinity"]; a != nil {
		t.Errorf("follower affinity %v, want none", a)
	}
}
