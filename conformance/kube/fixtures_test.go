package kube

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestFixtures proves the validators are wired: the valid fixtures pass, and each invalid fixture
// fails with exactly the errors its `# expect-kube:` lines name, and no others (the fixtures are
// shared with the training-operator module, whose lines start `# expect-kubeflow:`).
func TestFixtures(t *testing.T) {
	valid, err := filepath.Glob("../testdata/valid/*.yaml")
	if err != nil || len(valid) == 0 {
		t.Fatalf("no valid fixtures: %v", err)
	}
	for _, f := range valid {
		for _, p := range checkFile(t, f) {
			t.Errorf("valid fixture rejected: %s", p)
		}
	}
	invalid, err := filepath.Glob("../testdata/invalid/*.yaml")
	if err != nil || len(invalid) == 0 {
		t.Fatalf("no invalid fixtures: %v", err)
	}
	for _, f := range invalid {
		// A fixture without `# expect-kube:` lines is one only the training operator refuses.
		expected := expectations(t, f)
		var got []string
		for _, p := range checkFile(t, f) {
			got = append(got, p.Error.Error())
		}
		if strings.Join(got, "\n") != strings.Join(expected, "\n") {
			t.Errorf("%s:\nexpected:\n  %s\ngot:\n  %s", f, strings.Join(expected, "\n  "), strings.Join(got, "\n  "))
		}
	}
}

func checkFile(t *testing.T, file string) []Problem {
	t.Helper()
	docs, err := corpus.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var problems []Problem
	for _, d := range docs {
		problems = append(problems, Check(d, NewFigures())...)
	}
	return problems
}

// expectations are the `# expect-kube: <Kubernetes error>` lines of a fixture, in order.
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
		if rest, ok := strings.CutPrefix(s.Text(), "# expect-kube: "); ok {
			out = append(out, rest)
		}
	}
	return out
}
