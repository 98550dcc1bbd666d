package kube

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// derivedProducers are the controllers whose derived objects another module writes into
// DERIVED_DIR during its manifest run (kubeflow/ and trainer/ run before this module); each file
// must be there, even empty, or the run would validate less than it claims.
var derivedProducers = []string{"training-operator", "jobset"}

// derivedDecided is the file of decided families of derived-object refusals.
const derivedDecided = "../testdata/derived-decided.json"

// TestDerived validates every object a controller builds from the manifests (ValidateDerived): the
// producers' files in DERIVED_DIR, and the notebooks controller's objects built here
// (NotebooksDerived). A refusal fails the run unless derived-decided.json decides it.
func TestDerived(t *testing.T) {
	dir := corpus.DerivedDir()
	for _, c := range derivedProducers {
		if _, err := os.Stat(corpus.DerivedFile(dir, c)); err != nil {
			t.Fatalf("%v\n(run the %s producer's TestManifests first, or set DERIVED_DIR)", err, c)
		}
	}
	records, err := corpus.ReadDerived(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := corpus.ReadDirs(corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...))
	if err != nil {
		t.Fatal(err)
	}
	records = append(records, NotebooksDerived(docs)...)
	decisions, err := LoadDerivedDecisions(derivedDecided)
	if err != nil {
		t.Fatal(err)
	}
	figures := map[string]*DerivedFigures{}
	bySource := map[string]*DerivedFigures{}
	figure := func(m map[string]*DerivedFigures, key string) *DerivedFigures {
		if m[key] == nil {
			m[key] = &DerivedFigures{Documents: map[string]bool{}, ByKind: map[string]int{}}
		}
		return m[key]
	}
	for _, r := range records {
		undecided, decided := 0, 0
		for _, e := range ValidateDerived(r) {
			if d := decisions.Decide(r.Controller, r.Kind, e); d != nil {
				decided++
				t.Logf("decided (%s): %s: %s %s: %s", d.Inventory, r.From, r.Controller, r.Kind, e)
				continue
			}
			undecided++
			t.Errorf("%s: %s built a %s %s that Kubernetes %s refuses: %s", r.From, r.Controller, r.Kind, objectName(r), Release, e)
		}
		for _, f := range []*DerivedFigures{figure(figures, r.Controller), figure(bySource, r.Controller+" from "+derivedSource(r.From))} {
			f.Documents[r.From] = true
			f.ByKind[r.Kind]++
			if undecided > 0 {
				f.Refused++
			} else if decided > 0 {
				f.Decided++
			}
		}
	}
	controllers := append([]string{}, derivedProducers...)
	if figures["notebooks"] != nil {
		controllers = append(controllers, "notebooks")
	}
	for _, c := range controllers {
		// One line per controller and release: this source also runs as ../kube-v1.35.
		fmt.Println(figure(figures, c).Line(c) + " (Kubernetes " + Release + ")")
	}
	keys := make([]string, 0, len(bySource))
	for k := range bySource {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Log(bySource[k].Line(k))
	}
}

// derivedSource names the folder a source document came from (the tests' dump, the examples'
// synth), or the fuzz corpus.
func derivedSource(from string) string {
	file, _, _ := strings.Cut(from, "#")
	switch {
	case strings.Contains(file, "test-reports"+string(filepath.Separator)+"manifests"):
		return "tests"
	case strings.HasPrefix(filepath.Clean(file), "dist") || strings.Contains(file, string(filepath.Separator)+"dist"+string(filepath.Separator)):
		return "examples"
	}
	return "other"
}

func objectName(r corpus.Derived) string {
	meta := corpus.Map(r.Object["metadata"])
	name, _ := meta["name"].(string)
	if name == "" {
		name, _ = meta["generateName"].(string)
	}
	ns, _ := meta["namespace"].(string)
	return ns + "/" + name
}

// TestDerivedFixtures validates the derived objects of the fixture jobs (../testdata/derived, built
// by the producers' TestDerivedFixtures into DERIVED_DIR/fixtures) and expects, per fixture file,
// exactly the errors of its `# expect-derived: <Kind> <namespace>/<name>: <error>` lines: the
// oracle still finds each family the library now refuses, and nothing on the controls.
func TestDerivedFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus.DerivedDir(), "fixtures", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no derived fixtures under %s (run kubeflow/TestDerivedFixtures first)", filepath.Join(corpus.DerivedDir(), "fixtures"))
	}
	got := map[string][]string{}
	for _, f := range files {
		records, err := corpus.ReadDerivedFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range records {
			source, _, _ := strings.Cut(r.From, "#")
			if _, seen := got[source]; !seen {
				got[source] = nil // a file whose objects all pass is checked too
			}
			for _, e := range ValidateDerived(r) {
				got[source] = append(got[source], fmt.Sprintf("%s %s: %s", r.Kind, objectName(r), e))
			}
		}
	}
	for source, errs := range got {
		raw, err := os.ReadFile(source)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, line := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(line, "# expect-derived: "); ok {
				want = append(want, rest)
			}
		}
		sort.Strings(want)
		sort.Strings(errs)
		if strings.Join(errs, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\nexpected:\n  %s\ngot:\n  %s", source, strings.Join(want, "\n  "), strings.Join(errs, "\n  "))
		}
	}
}
