package trainer

import (
	"context"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestLeafFuzz creates each Trainer document of the leaf-path fuzz corpus (scripts/leaf-fuzz.ts) on
// its own cluster with the built-in runtimes (Checker.Check: the API server's pruning and defaults,
// then the Trainer webhooks), builds the JobSet of each TrainJob the webhooks accept as the
// controller would, and writes the verdicts for scripts/leaf-fuzz-compare.ts. A pruned field is a
// refusal (a field the library writes must be stored); a JobSet that cannot be built is one too.
func TestLeafFuzz(t *testing.T) {
	dir := corpus.FuzzDir()
	docs, err := corpus.ReadFuzz(dir)
	if err != nil {
		t.Fatal(err)
	}
	checker, _ := newChecker(t)
	verdicts := corpus.FuzzVerdicts{}
	judged, refused, undecodable := 0, 0, 0
	for _, d := range docs {
		if !IsTrainerKind(d) {
			continue
		}
		results, err := checker.Check(context.Background(), []corpus.Document{d})
		var errs []string
		if err != nil {
			// A document that does not decode into the Trainer's types is one the webhooks would
			// deny (controller-runtime's decoder fails); a wrong type makes most of these.
			errs = append(errs, "not applied: "+err.Error())
			undecodable++
		}
		for _, r := range results {
			if !r.Accepted() {
				errs = append(errs, r.Problem())
			}
			if r.BuildError != nil {
				errs = append(errs, "JobSet build: "+r.BuildError.Error())
			}
		}
		verdicts.Judged(d.File, "trainer", errs)
		judged++
		if len(errs) > 0 {
			refused++
		}
	}
	if err := corpus.WriteFuzzVerdicts(dir, "trainer", verdicts); err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf fuzz: %d documents, %d Trainer documents judged, %d refused (%d of them do not decode into the Trainer's types)", len(docs), judged, refused, undecodable)
}
