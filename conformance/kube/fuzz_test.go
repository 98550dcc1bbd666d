package kube

import (
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The pinned CRDs of every kind the library writes (upstream/crds, checked against the releases by
// `npx projen import:verify`).
var crdDirs = []string{"../../upstream/crds/training-operator", "../../upstream/crds/trainer-v2", "../../upstream/crds/notebooks-v2"}

// TestLeafFuzz judges the leaf-path fuzz corpus (scripts/leaf-fuzz.ts) two ways, as sources of
// their own: Kubernetes' validation (Check: metadata, pod templates, pods) and the API server's
// custom resource validation (the pinned CRD's OpenAPI schema with its CEL rules). It writes the
// verdicts for scripts/leaf-fuzz-compare.ts, which decides agreement; it fails only when a
// document cannot be judged.
func TestLeafFuzz(t *testing.T) {
	dir := corpus.FuzzDir()
	docs, err := corpus.ReadFuzz(dir)
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := LoadCRDSchemas(crdDirs...)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := corpus.FuzzVerdicts{}
	figures := NewFigures()
	refused := map[string]int{}
	for _, d := range docs {
		var kube []string
		for _, p := range Check(d, figures) {
			kube = append(kube, p.Validator+": "+p.Error.Error())
		}
		verdicts.Judged(d.File, "kubernetes", kube)
		errs, known := schemas.Validate(d)
		if !known {
			t.Errorf("%s: no pinned CRD for %s %s", d.File, d.APIVersion(), d.Kind())
			continue
		}
		var schema []string
		for _, e := range errs {
			schema = append(schema, CRDSchemaValidator+": "+e.Error())
		}
		verdicts.Judged(d.File, "crd-schema", schema)
		if len(kube) > 0 {
			refused["kubernetes"]++
		}
		if len(schema) > 0 {
			refused["crd-schema"]++
		}
	}
	if err := corpus.WriteFuzzVerdicts(dir, "kube", verdicts); err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf fuzz: %d documents; refused by Kubernetes %d, by the CRD schema with CEL %d", len(docs), refused["kubernetes"], refused["crd-schema"])
}
