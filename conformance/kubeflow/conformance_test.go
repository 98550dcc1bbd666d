package kubeflow

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Folders the manifests come from, relative to this module, when MANIFESTS_DIR is not set.
var defaultManifestDirs = []string{"../../test-reports/manifests", "../../dist"}

// VerdictsFile is written into the differential folder: for each rejected case, the webhook
// errors (empty when the webhook accepts it). The Kubernetes module reads it to report the
// combined verdict of Kubernetes and the training operator.
const VerdictsFile = "kubeflow-verdicts.json"

func printFigures(t *testing.T, f *Figures) {
	t.Logf("documents checked: %d", f.Documents)
	names := make([]string, 0, len(f.Runs))
	for n := range f.Runs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("validator training-operator %s: %d runs", n, f.Runs[n])
	}
}

// TestManifests runs the webhooks on every training job the tests and the examples produced.
func TestManifests(t *testing.T) {
	dirs := corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...)
	docs, err := corpus.ReadDirs(dirs)
	if err != nil {
		t.Fatalf("%v\n(run the jest suite with MANIFESTS_DUMP_DIR set and `npm run synth` first, or set MANIFESTS_DIR to a list of folders)", err)
	}
	if len(docs) == 0 {
		t.Fatalf("no manifests under %s", strings.Join(dirs, ", "))
	}
	figures := NewFigures()
	var problems []Problem
	var derived []corpus.Derived
	jobs := 0
	for _, d := range docs {
		found := Check(d, figures)
		problems = append(problems, found...)
		// The operator reconciles what its webhooks let in: the objects it builds from each job.
		if len(found) > 0 || !Reconciled(d) {
			continue
		}
		jobs++
		built, err := BuildDerived(d, d.Label())
		if err != nil {
			t.Errorf("%s: %v", d.Label(), err)
		}
		derived = append(derived, built...)
	}
	writeDerived(t, corpus.DerivedFile(corpus.DerivedDir(), DerivedController), jobs, derived)
	t.Logf("manifests from %s", strings.Join(dirs, ", "))
	printFigures(t, figures)
	t.Logf("errors: %d", len(problems))
	for _, p := range problems {
		t.Error(p.String())
	}
	runs := 0
	for _, n := range figures.Runs {
		runs += n
	}
	// One line per release: this source also runs as ../kubeflow-v1.9.0.
	fmt.Printf("training-operator %s webhooks: %d documents, %d through a webhook, %d refused\n", Release, figures.Documents, runs, len(problems))
}

// writeDerived writes the derived objects for kube/TestDerived (when this module's release is the
// one the validation reads, WritesDerived) and prints their count by kind.
func writeDerived(t *testing.T, file string, jobs int, derived []corpus.Derived) {
	t.Helper()
	byKind := map[string]int{}
	for _, r := range derived {
		byKind[r.Kind]++
	}
	kinds := make([]string, 0, len(byKind))
	for k, n := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	written := ""
	if WritesDerived {
		if err := corpus.WriteDerived(file, derived); err != nil {
			t.Fatal(err)
		}
		written = " -> " + file
	}
	fmt.Printf("training-operator %s derived objects: %d jobs reconciled, %d objects (%s)%s\n", Release, jobs, len(derived), strings.Join(kinds, ", "), written)
}

// TestDifferential runs the webhooks on the differential corpus: every accepted case must pass;
// for the rejected ones the verdicts are written for the Kubernetes module and counted here.
func TestDifferential(t *testing.T) {
	dir := os.Getenv("DIFFERENTIAL_DIR")
	if dir == "" {
		dir = "../../test-reports/differential"
	}
	d, err := corpus.ReadDifferential(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Accepted)+len(d.Rejected) == 0 {
		t.Fatalf("no differential corpus under %s (run scripts/differential.ts first)", dir)
	}
	figures := NewFigures()
	passed := 0
	for _, c := range d.Accepted {
		var problems []Problem
		for _, doc := range c.Docs {
			problems = append(problems, Check(doc, figures)...)
		}
		if len(problems) == 0 {
			passed++
		}
		for _, p := range problems {
			t.Errorf("library bug: emitted %s, which the training operator rejects: %s", c.File, p)
		}
	}
	verdicts := map[string][]string{}
	rejected := 0
	for _, c := range d.Rejected {
		errs := []string{}
		for _, doc := range c.Docs {
			for _, p := range Check(doc, figures) {
				errs = append(errs, p.String())
			}
		}
		if len(errs) > 0 {
			rejected++
		}
		verdicts[filepath.Base(c.File)] = errs
	}
	raw, err := json.MarshalIndent(verdicts, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, VerdictsFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	printFigures(t, figures)
	summary := fmt.Sprintf("agreement (training-operator webhooks): accepted %d/%d pass; rejected %d/%d also rejected by the webhooks",
		passed, len(d.Accepted), rejected, len(d.Rejected))
	t.Log(summary)
	fmt.Println(summary)
}

// TestFixtures proves the webhooks are wired: the valid fixtures pass, and each invalid fixture
// fails with exactly the errors its `# expect-kubeflow:` lines name (none: it passes the webhooks).
func TestFixtures(t *testing.T) {
	for _, side := range []string{"valid", "invalid"} {
		files, err := filepath.Glob("../testdata/" + side + "/*.yaml")
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s fixtures: %v", side, err)
		}
		for _, f := range files {
			docs, err := corpus.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, doc := range docs {
				for _, p := range Check(doc, NewFigures()) {
					got = append(got, p.Error)
				}
			}
			expected := expectations(t, f)
			if strings.Join(got, "\n") != strings.Join(expected, "\n") {
				t.Errorf("%s:\nexpected:\n  %s\ngot:\n  %s", f, strings.Join(expected, "\n  "), strings.Join(got, "\n  "))
			}
		}
	}
}

// expectations are the `# expect-kubeflow: <webhook error>` lines of a fixture, in order.
func expectations(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "# expect-kubeflow: "); ok {
			out = append(out, rest)
		}
	}
	return out
}
