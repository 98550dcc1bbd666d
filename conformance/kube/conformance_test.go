package kube

import (
	"encoding/json"
	"errors"
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
	webhooks, err := readWebhookVerdicts(dir)
	if err != nil {
		t.Fatal(err)
	}
	alsoRejected, rejectedWithWebhooks := 0, 0
	checkable, checkableRejected := 0, 0
	var disagreements []string
	byRule := map[string][2]int{} // rule -> {cases, also rejected}
	for _, c := range d.Rejected {
		var problems []Problem
		for _, doc := range c.Docs {
			problems = append(problems, Check(doc, figures)...)
		}
		rejected := len(problems) > 0
		if isCheckable(c.Findings) {
			checkable++
			if rejected {
				checkableRejected++
			}
		}
		webhookErrs := webhooks[filepath.Base(c.File)]
		if rejected {
			alsoRejected++
		} else {
			verdict := "Kubernetes: accepted"
			if len(webhookErrs) > 0 {
				verdict += "; training-operator webhook: " + strings.Join(webhookErrs, " | ")
			}
			disagreements = append(disagreements, fmt.Sprintf("%s: library: %s; %s", filepath.Base(c.File), findingsText(c.Findings), verdict))
		}
		if rejected || len(webhookErrs) > 0 {
			rejectedWithWebhooks++
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
		note := ""
		if reason, ok := beyondRule(rule); ok {
			note = " (beyond object validation: " + reason + ")"
		}
		t.Logf("rule %s: %d rejected cases, %d also rejected by Kubernetes%s", rule, n[0], n[1], note)
	}
	for _, line := range disagreements {
		t.Log("disagreement: " + line)
	}
	summary := fmt.Sprintf("agreement: accepted %d/%d pass the real validators; rejected %d/%d also rejected by Kubernetes",
		passed, len(d.Accepted), alsoRejected, len(d.Rejected))
	t.Log(summary)
	fmt.Println(summary)
	if webhooks != nil {
		line := fmt.Sprintf("agreement with the training-operator webhooks too: rejected %d/%d rejected by Kubernetes or the webhooks", rejectedWithWebhooks, len(d.Rejected))
		t.Log(line)
		fmt.Println(line)
	}
	line := fmt.Sprintf("agreement on rules the API server checks: rejected %d/%d also rejected by Kubernetes (the other %d cases have only kubelet, runtime or app findings)",
		checkableRejected, checkable, len(d.Rejected)-checkable)
	t.Log(line)
	fmt.Println(line)
	if float64(checkableRejected) < MinRejectedAgreement*float64(checkable) {
		t.Errorf("only %d/%d of the configurations the library rejects for a rule the API server checks are rejected by Kubernetes; expected at least %.0f%%",
			checkableRejected, checkable, MinRejectedAgreement*100)
	}
}

// beyondObjectValidation lists the library's rules that no validator of a single object can
// confirm, with the reason: rules of the kubelet and the container runtime, which refuse a pod at
// start after the API server accepted it, and rules across objects. A rejected case whose findings
// are all of these rules is reported (its verdicts are listed) but not held to agreement.
var beyondObjectValidation = map[string]string{
	"k8s/mount-path":        "the API server only requires a mount path; the container runtime refuses a relative one",
	"k8s/mount-path-unique": "the API server compares paths as written; the kubelet refuses /data and /data/ together",
	"k8s/working-dir":       "the API server accepts any working directory; runc refuses a relative one",
	"k8s/run-as-non-root":   "the kubelet refuses runAsNonRoot with uid 0 at start (verifyRunAsNonRoot)",
	"k8s/capability-name":   "the API server accepts any capability name; the container runtime refuses unknown ones",
}

// beyondRule says whether a rule is one no single-object validator can confirm: the list above
// and every rule across the objects of an app (`app/...`).
func beyondRule(rule string) (string, bool) {
	if strings.HasPrefix(rule, "app/") {
		return "a rule across the objects of an app", true
	}
	reason, ok := beyondObjectValidation[rule]
	return reason, ok
}

// MinRejectedAgreement is the share of rejected cases with at least one finding of a rule the
// API server checks (every rule not in beyondObjectValidation) that Kubernetes must also reject: all
// of them. A disagreement means the library is stricter than Kubernetes (or wrong); the fix is the
// rule, or, when the rule is a kubelet or runtime refusal, an entry in beyondObjectValidation.
const MinRejectedAgreement = 1.0

// readWebhookVerdicts reads the training-operator module's verdicts on the rejected cases
// (conformance/kubeflow writes them when it runs first); nil when it has not run.
func readWebhookVerdicts(dir string) (map[string][]string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "kubeflow-verdicts.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var verdicts map[string][]string
	return verdicts, json.Unmarshal(raw, &verdicts)
}

// isCheckable says whether a case has a finding of a rule the API server checks.
func isCheckable(fs []corpus.Finding) bool {
	for _, f := range fs {
		if _, beyond := beyondRule(f.Rule); !beyond {
			return true
		}
	}
	return false
}

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
