package trainer

import (
	"context"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
)

// probeTrainJobName names the TrainJob a fuzzed runtime is tried with: short, so that the names
// the JobSet webhook derives from it (<job>-<replicatedJob>-<index>-<pod>) stay within their limits
// unless the runtime's own names exceed them.
const probeTrainJobName = "probe"

// probeTrainJob is the smallest TrainJob of a runtime: its runtimeRef only, in the runtime's
// namespace (a ClusterTrainingRuntime's in the default one). The runtime's webhook does not look
// at the JobSet webhook's checks or at what the Trainer checks per job; a TrainJob of the runtime
// goes through both.
func probeTrainJob(runtime corpus.Document) corpus.Document {
	meta := map[string]any{"name": probeTrainJobName}
	if runtime.Kind() == trainer.TrainingRuntimeKind {
		namespace := runtime.Namespace()
		if namespace == "" {
			namespace = DefaultNamespace
		}
		meta["namespace"] = namespace
	}
	return corpus.Document{File: runtime.File, Index: runtime.Index + 1, Object: map[string]any{
		"apiVersion": trainer.GroupVersion.String(),
		"kind":       trainer.TrainJobKind,
		"metadata":   meta,
		"spec": map[string]any{"runtimeRef": map[string]any{
			"apiGroup": trainer.GroupVersion.Group,
			"kind":     runtime.Kind(),
			"name":     runtime.Name(),
		}},
	}}
}

// acceptedJobSet is the stored JobSet of the one TrainJob of results whose JobSet the JobSet
// webhooks accepted, or nil.
func acceptedJobSet(results []Result) []byte {
	for _, r := range results {
		if r.Document.Kind() == trainer.TrainJobKind && r.JobSet != nil && r.JobSet.Allowed {
			return r.JobSet.Object
		}
	}
	return nil
}

// problems are the reasons the Trainer (webhooks, pruning, build) and the JobSet webhooks give
// against the results of one set.
func problems(results []Result) (trainerErrs, jobsetErrs []string) {
	for _, r := range results {
		if !r.Accepted() {
			trainerErrs = append(trainerErrs, r.Problem())
		}
		if r.BuildError != nil {
			trainerErrs = append(trainerErrs, "JobSet build: "+r.BuildError.Error())
		}
		if p := r.JobSetProblem(); p != "" {
			jobsetErrs = append(jobsetErrs, p)
		}
	}
	return trainerErrs, jobsetErrs
}

// TestLeafFuzz creates each Trainer document of the leaf-path fuzz corpus (scripts/leaf-fuzz.ts) on
// its own cluster with the built-in runtimes (Checker.Check: the API server's pruning and defaults,
// then the Trainer webhooks), builds the JobSet of each TrainJob the webhooks accept as the
// controller would, and writes the verdicts for scripts/leaf-fuzz-compare.ts. A pruned field is a
// refusal (a field the library writes must be stored); a JobSet that cannot be built is one too.
//
// The JobSet webhooks (sigs.k8s.io/jobset v0.12.0) judge the built JobSet as a source of their own,
// "jobset". An accepted runtime is applied again with a probe TrainJob of it: the Trainer's refusal
// of that job joins the runtime's "trainer" verdict, and the JobSet webhooks judge its JobSet, as
// they would the JobSet of every TrainJob of the runtime. A document the Trainer refuses is not
// judged by "jobset": nothing of it reaches the JobSet controller.
//
// The JobSet the webhooks accept goes one step further (JobSetDerived): the Service and Jobs the
// JobSet controller creates and the Pods of each Job are written to <FUZZ_DIR>/derived-jobset.jsonl,
// keyed by the fuzz document's file, for kube/'s derived-object verdicts. A JobSet the JobSet
// controller cannot reconcile fails the run: the controller would retry it forever, and no source
// judges that yet.
func TestLeafFuzz(t *testing.T) {
	dir := corpus.FuzzDir()
	docs, err := corpus.ReadFuzz(dir)
	if err != nil {
		t.Fatal(err)
	}
	checker, _ := newChecker(t)
	verdicts := corpus.FuzzVerdicts{}
	judged, refused, undecodable, probesRefused, jobsetJudged, jobsetRefused, derivedDocs, unbuilt := 0, 0, 0, 0, 0, 0, 0, 0
	var derived []corpus.Derived
	for _, d := range docs {
		if !IsTrainerKind(d) {
			continue
		}
		set := []corpus.Document{d}
		results, err := checker.Check(context.Background(), set)
		var errs []string
		if err != nil {
			// A document that does not decode into the Trainer's types is one the webhooks would
			// deny (controller-runtime's decoder fails); a wrong type makes most of these.
			errs = append(errs, "not applied: "+err.Error())
			undecodable++
		}
		trainerErrs, jobsetErrs := problems(results)
		stored := acceptedJobSet(results)
		errs = append(errs, trainerErrs...)
		jobsetReached := len(errs) == 0 && d.Kind() == trainer.TrainJobKind
		if len(errs) == 0 && IsRuntime(d) && len(results) == 1 && !results[0].Skipped {
			probe := probeTrainJob(d)
			probed, err := checker.Check(context.Background(), []corpus.Document{d, probe})
			if err != nil {
				t.Fatalf("%s with %s: %v", d.Label(), probe.Label(), err)
			}
			probeErrs, probeJobsetErrs := problems(probed)
			for _, p := range probeErrs {
				errs = append(errs, "a TrainJob of this runtime: "+p)
			}
			if len(probeErrs) > 0 {
				probesRefused++
			}
			jobsetErrs = probeJobsetErrs
			jobsetReached = len(probeErrs) == 0
			stored = acceptedJobSet(probed)
		}
		verdicts.Judged(d.File, "trainer", errs)
		judged++
		if len(errs) > 0 {
			refused++
		}
		if jobsetReached {
			verdicts.Judged(d.File, "jobset", jobsetErrs)
			jobsetJudged++
			if len(jobsetErrs) > 0 {
				jobsetRefused++
			}
		}
		if len(errs) == 0 && stored != nil {
			records, err := JobSetDerived(context.Background(), d.File, stored)
			if err != nil {
				// The controller stopped short of the Jobs the JobSet asks for (a success policy that
				// ends the JobSet before the jobs that wait on another start): the job never trains,
				// so the derived-jobset source refuses the document. This module's verdicts are read
				// after kube/'s, which has no objects of this document to judge.
				verdicts.Judged(d.File, "derived-"+JobSetController, []string{"jobset controller: " + err.Error()})
				unbuilt++
				continue
			}
			derived = append(derived, records...)
			derivedDocs++
		}
	}
	if err := corpus.WriteDerived(corpus.FuzzDerivedFile(dir, JobSetController), derived); err != nil {
		t.Fatal(err)
	}
	if err := corpus.WriteFuzzVerdicts(dir, "trainer", verdicts); err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf fuzz: %d documents, %d Trainer documents judged, %d refused (%d of them do not decode into the Trainer's types, %d runtimes refused through their probe TrainJob); the JobSet webhooks judged the JobSets of %d, refused %d; %d derived objects (Service, Jobs, Pods) from the accepted JobSets of %d documents; %d JobSets the controller stops short of their Jobs",
		len(docs), judged, refused, undecodable, probesRefused, jobsetJudged, jobsetRefused, len(derived), derivedDocs, unbuilt)
}
