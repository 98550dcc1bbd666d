package kube

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The pinned CRDs of every kind the library writes (upstream/crds, checked against the releases by
// `npx projen import:verify`).
var crdDirs = []string{"../../upstream/crds/training-operator", "../../upstream/crds/trainer-v2", "../../upstream/crds/notebooks-v2"}

// TestLeafFuzz judges the leaf-path fuzz corpus (scripts/leaf-fuzz.ts) two ways, as sources of
// their own: Kubernetes' validation (Check: metadata, pod templates, pods) and the API server's
// custom resource validation (the pinned CRD's OpenAPI schema with its CEL rules). Then the objects
// the controllers build from the documents they accept (judgeDerivedFuzz): one source per
// controller, derived-<controller>. It writes the verdicts for scripts/leaf-fuzz-compare.ts, which
// decides agreement; it fails only when a document cannot be judged or a producer's file is missing.
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
	// What the API server stores: a document Kubernetes and its CRD schema both accept.
	stored := map[string]bool{}
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
		stored[d.File] = len(kube) == 0 && len(schema) == 0
	}
	judgeDerivedFuzz(t, dir, docs, stored, verdicts)
	if err := corpus.WriteFuzzVerdicts(dir, "kube", verdicts); err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf fuzz: %d documents; refused by Kubernetes %d, by the CRD schema with CEL %d", len(docs), refused["kubernetes"], refused["crd-schema"])
}

// derivedFuzzProducers are the controllers whose objects built from the fuzz corpus another module
// writes to <FUZZ_DIR>/derived-<controller>.jsonl from its TestLeafFuzz (contract C1), by module.
var derivedFuzzProducers = map[string]string{"training-operator": "kubeflow", "jobset": "trainer"}

// judgeDerivedFuzz validates (ValidateDerived) every object a controller builds from a fuzz
// document: the producers' files, and the notebooks controller's objects (NotebooksDerived) for
// each Workspace and WorkspaceKind the API server stores, each paired with the other kind's seed
// (a WorkspaceKind's Workspace names it). A document's objects give one verdict under the source
// derived-<controller>: every error of every object, or none (accepted). A document the
// controller built nothing from (refused before, or not its kind) has no verdict of that source.
func judgeDerivedFuzz(t *testing.T, dir string, docs []corpus.Document, stored map[string]bool, verdicts corpus.FuzzVerdicts) {
	var records []corpus.Derived
	controllers := make([]string, 0, len(derivedFuzzProducers))
	for c := range derivedFuzzProducers {
		controllers = append(controllers, c)
	}
	sort.Strings(controllers)
	for _, c := range controllers {
		read, err := corpus.ReadDerivedFile(corpus.FuzzDerivedFile(dir, c))
		if err != nil {
			t.Errorf("%v\n(run the %s module's TestLeafFuzz first: it writes what the %s controller builds from the fuzz corpus)", err, derivedFuzzProducers[c], c)
			continue
		}
		records = append(records, read...)
	}
	notebooks, err := notebooksDerivedFuzz(dir, docs, stored)
	if err != nil {
		t.Error(err)
	}
	records = append(records, notebooks...)

	byDoc := map[string]map[string][]string{}
	figures := map[string]*DerivedFigures{}
	for _, r := range records {
		if _, ok := stored[r.From]; !ok {
			t.Errorf("%s built a %s from %q, which is no fuzz document's file", r.Controller, r.Kind, r.From)
			continue
		}
		if byDoc[r.Controller] == nil {
			byDoc[r.Controller] = map[string][]string{}
		}
		errs := append([]string{}, byDoc[r.Controller][r.From]...)
		objectErrs := ValidateDerived(r)
		for _, e := range objectErrs {
			errs = append(errs, fmt.Sprintf("%s %s: %s", r.Kind, objectName(r), e))
		}
		byDoc[r.Controller][r.From] = errs
		if figures[r.Controller] == nil {
			figures[r.Controller] = &DerivedFigures{Documents: map[string]bool{}, ByKind: map[string]int{}}
		}
		f := figures[r.Controller]
		f.Documents[r.From] = true
		f.ByKind[r.Kind]++
		if len(objectErrs) > 0 {
			f.Refused++
		}
	}
	names := make([]string, 0, len(byDoc))
	for c := range byDoc {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		for file, errs := range byDoc[c] {
			verdicts.Judged(file, "derived-"+c, errs)
		}
		t.Logf("leaf fuzz: %s", figures[c].Line(c))
	}
}

// notebooksDerivedFuzz builds the notebooks controller's objects for the fuzz corpus: each stored
// Workspace with the WorkspaceKind seed (seeds/WorkspaceKind.yaml, written by scripts/leaf-fuzz.ts),
// each stored WorkspaceKind alone, which NotebooksDerived runs with a stand-in Workspace per
// option, so that a fuzzed option reaches the objects whichever option the seed Workspace picks.
// Every object's From is the fuzz document's file.
func notebooksDerivedFuzz(dir string, docs []corpus.Document, stored map[string]bool) ([]corpus.Derived, error) {
	seeds, err := corpus.ReadFile(filepath.Join(dir, "seeds", "WorkspaceKind.yaml"))
	if err != nil {
		return nil, fmt.Errorf("the WorkspaceKind seed of the fuzz corpus: %w (scripts/leaf-fuzz.ts writes it)", err)
	}
	if len(seeds) != 1 {
		return nil, fmt.Errorf("seeds/WorkspaceKind.yaml: expected one document, found %d", len(seeds))
	}
	var out []corpus.Derived
	for _, d := range docs {
		if !stored[d.File] {
			continue
		}
		var set []corpus.Document
		switch d.Kind() {
		case "Workspace":
			set = []corpus.Document{d, seeds[0]}
		case "WorkspaceKind":
			set = []corpus.Document{d}
		default:
			continue
		}
		for _, r := range NotebooksDerived(set) {
			r.From = d.File
			out = append(out, r)
		}
	}
	return out, nil
}
