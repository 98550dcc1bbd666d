package kubeflow

import (
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestLeafFuzz runs the training operator's validating webhooks on the leaf-path fuzz corpus
// (scripts/leaf-fuzz.ts) and writes their verdicts for scripts/leaf-fuzz-compare.ts: the kinds
// with a webhook get a verdict (no errors: accepted), the others none.
func TestLeafFuzz(t *testing.T) {
	dir := corpus.FuzzDir()
	docs, err := corpus.ReadFuzz(dir)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := corpus.FuzzVerdicts{}
	figures := NewFigures()
	judged, refused := 0, 0
	for _, d := range docs {
		if _, ok := webhooks[d.Kind()]; !ok || d.APIVersion() != corpus.JobGroup {
			continue
		}
		var errs []string
		for _, p := range Check(d, figures) {
			errs = append(errs, p.Webhook+": "+p.Error)
		}
		verdicts.Judged(d.File, "training-operator", errs)
		judged++
		if len(errs) > 0 {
			refused++
		}
	}
	if err := corpus.WriteFuzzVerdicts(dir, "kubeflow", verdicts); err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf fuzz: %d documents, %d judged by a training-operator webhook, %d refused", len(docs), judged, refused)
}
