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
}

// TestDifferential runs the differential corpus: every accepted case must pass; of the rejected
// ones, the share Kubernetes also rejects is reported and must reach MinRejectedAgreement.
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
			continue
		}
		for _, p := range problems {
			t.Errorf("library bug: emitted %s, which Kubernetes rejects: %s", c.File, p)
		}
	}
	alsoRejected := 0
	var disagreements []string
	byRule := map[string][2]int{} // rule -> {cases, also rejected}
	for _, c := range d.Rejected {
		var problems []Problem
		for _, doc := range c.Docs {
			problems = append(problems, Check(doc, figures)...)
		}
		rejected := len(problems) > 0
		if rejected {
			alsoRejected++
		} else {
			disagreements = append(disagreements, fmt.Sprintf("%s: library: %s; Kubernetes: accepted", filepath.Base(c.File), findingsText(c.Findings)))
		}
		for _, rule := range rulesOf(c.Findings) {
			n := byRule[rule]
			n[0]++
			if rejected {
				n[1]++
			}
			byRule[rule] = n
		}
	}
	for _, line := range figures.Lines() {
		t.Log(line)
	}
	for _, rule := range sortedRules(byRule) {
		n := byRule[rule]
		t.Logf("rule %s: %d rejected cases, %d also rejected by Kubernetes", rule, n[0], n[1])
	}
	for _, line := range disagreements {
		t.Log("disagreement: " + line)
	}
	summary := fmt.Sprintf("agreement: accepted %d/%d pass the real validators; rejected %d/%d also rejected by Kubernetes",
		passed, len(d.Accepted), alsoRejected, len(d.Rejected))
	t.Log(summary)
	fmt.Println(summary)
	if len(d.Rejected) > 0 && float64(alsoRejected) < MinRejectedAgreement*float64(len(d.Rejected)) {
		t.Errorf("only %d/%d of the configurations the library rejects for a Kubernetes rule are rejected by Kubernetes; expected at least %.0f%%",
			alsoRejected, len(d.Rejected), MinRejectedAgreement*100)
	}
}

// MinRejectedAgreement is the share of library rejections that Kubernetes must confirm. Not 100%:
// some library rules are on purpose stricter than the API server (kubelet refusals, and rules the
// issue asks for that no validator sees, such as int32 overflows the JSON decoder wraps); each such
// disagreement is listed, and the rule they belong to decides whether it is expected.
const MinRejectedAgreement = 0.90

func findingsText(fs []corpus.Finding) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, " | ")
}

func rulesOf(fs []corpus.Finding) []string {
	seen := map[string]bool{}
	var rules []string
	for _, f := range fs {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			rules = append(rules, f.Rule)
		}
	}
	return rules
}

func sortedRules(m map[string][2]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
