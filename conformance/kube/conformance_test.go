package kube

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Folders the manifests come from, relative to this module, when MANIFESTS_DIR is not set: what
// the jest run dumps (MANIFESTS_DUMP_DIR) and what `npm run synth` writes.
var defaultManifestDirs = []string{"../../test-reports/manifests", "../../dist"}

// TestManifests validates every document the tests and the examples produced. It fails listing
// every error; a missing folder is an error too (a run that checks nothing proves nothing).
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
	for _, d := range docs {
		problems = append(problems, Check(d, figures)...)
	}
	t.Logf("manifests from %s", strings.Join(dirs, ", "))
	for _, line := range figures.Lines() {
		t.Log(line)
	}
	t.Logf("errors: %d", len(problems))
	for _, p := range problems {
		t.Error(p.String())
	}
	// One line per release: this source also runs as ../kube-v1.35.
	fmt.Printf("kubernetes %s: %d documents, %d pod templates, %d errors\n", Release, figures.Documents, figures.Templates, len(problems))
}

// TestDifferential runs the differential corpus: every accepted case must pass; of the rejected
// ones, those with a finding of a rule the API server checks must all be rejected by Kubernetes
// (MinRejectedAgreement); the others are reported.
func TestDifferential(t *testing.T) {
	dir := os.Getenv("DIFFERENTIAL_DIR")
	if dir == "" {
		dir = "../../test-reports/differential"
	}
	r, err := RunDifferential(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Accepted+r.Rejected == 0 {
		t.Fatalf("no differential corpus under %s (run scripts/differential.ts first)", dir)
	}
	for _, bug := range r.Bugs {
		t.Error(bug)
	}
	for _, line := range r.Lines() {
		t.Log(line)
	}
	for _, line := range r.Summary() {
		fmt.Println(line)
	}
	if float64(r.CheckableRejected) < MinRejectedAgreement*float64(r.Checkable) {
		t.Errorf("only %d/%d of the configurations the library rejects for a rule the API server checks are rejected by Kubernetes; expected at least %.0f%%",
			r.CheckableRejected, r.Checkable, MinRejectedAgreement*100)
	}
}

// TestDifferentialFixture proves the differential bookkeeping on a small corpus: one accepted case
// that passes, one that Kubernetes rejects (a library bug), a rejected case Kubernetes confirms,
// and a rejected case with only a runtime rule, which Kubernetes accepts.
func TestDifferentialFixture(t *testing.T) {
	r, err := RunDifferential("../testdata/differential")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("accepted %d passed %d bugs %d rejected %d also %d checkable %d/%d webhooks %v",
		r.Accepted, r.Passed, len(r.Bugs), r.Rejected, r.AlsoRejected, r.CheckableRejected, r.Checkable, r.Webhooks)
	if want := "accepted 2 passed 1 bugs 1 rejected 2 also 1 checkable 1/1 webhooks false"; got != want {
		t.Errorf("got %s, expected %s", got, want)
	}
	if len(r.Disagreements) != 1 || !strings.HasPrefix(r.Disagreements[0], "relative-workdir.yaml: library: spec.tfReplicaSpecs.Worker.template.spec.containers[0].workingDir is \"data\"") ||
		!strings.HasSuffix(r.Disagreements[0], "; Kubernetes: accepted") {
		t.Errorf("disagreements: %q", r.Disagreements)
	}
	if len(r.Bugs) == 1 && !strings.Contains(r.Bugs[0], "ports[0].name: Invalid value: \"metrics-port-long\": must be no more than 15 characters") {
		t.Errorf("bug: %s", r.Bugs[0])
	}
}
