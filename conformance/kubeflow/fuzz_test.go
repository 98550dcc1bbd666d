package kubeflow

import (
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestLeafFuzz runs the training operator's validating webhooks on the leaf-path fuzz corpus
// (scripts/leaf-fuzz.ts) and writes their verdicts for scripts/leaf-fuzz-compare.ts: the kinds
// with a webhook get a verdict (no errors: accepted), the others none. It also writes the Pods and
// Services the operator builds from the documents it lets in (derived-training-operator.jsonl),
// which kube/'s fuzz run validates.
func TestLeafFuzz(t *testing.T) {
	dir := corpus.FuzzDir()
	docs, err := corpus.ReadFuzz(dir)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := corpus.FuzzVerdicts{}
	figures := NewFigures()
	judged, refused := 0, 0
	var derived []corpus.Derived
	reconciled, unbuilt := 0, 0
	for _, d := range docs {
		if !Reconciled(d) {
			continue
		}
		if _, ok := webhooks[d.Kind()]; ok {
			var errs []string
			for _, p := range Check(d, figures) {
				errs = append(errs, p.Webhook+": "+p.Error)
			}
			verdicts.Judged(d.File, "training-operator", errs)
			judged++
			if len(errs) > 0 {
				refused++
				continue
			}
		}
		// What the operator builds from each document its webhooks let in (MPIJob has none), keyed
		// by the fuzz file as the verdicts are. A reconciler that returns an error (the MPIJob
		// controller validates the spec itself) builds nothing: the job sits with an event.
		reconciled++
		built, err := BuildDerived(d, d.File)
		if err != nil {
			unbuilt++
			continue
		}
		derived = append(derived, built...)
	}
	if err := corpus.WriteFuzzVerdicts(dir, "kubeflow", verdicts); err != nil {
		t.Fatal(err)
	}
	if WritesDerived {
		if err := corpus.WriteDerived(corpus.FuzzDerivedFile(dir, DerivedController), derived); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("leaf fuzz: %d documents, %d judged by a training-operator webhook, %d refused", len(docs), judged, refused)
	t.Logf("leaf fuzz: %d jobs reconciled, %d derived objects, %d jobs the reconciler refused", reconciled, len(derived), unbuilt)
}
