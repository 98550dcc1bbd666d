package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// beyondObjectValidation lists the library's rules that no validator of a single object can
// confirm, with the reason: rules of the kubelet and the container runtime, which refuse a pod at
// start after the API server accepted it, and rules across objects. A rejected case whose findings
// are all of these rules is reported (its verdicts are listed) but not held to agreement.
var beyondObjectValidation = map[string]string{
	"kubernetes/mount-path-unique": "the API server compares paths as written; the kubelet makes data, /data and /data/ one mount point",
	"kubernetes/working-dir":       "the API server accepts any working directory; the kubelet passes it on and runc refuses a relative one",
	"kubernetes/run-as-non-root":   "the kubelet refuses runAsNonRoot with uid 0 at start (verifyRunAsNonRoot)",
	"kubernetes/capability-name":   "the API server accepts any capability name; CRI-O refuses an unknown one (or one written with CAP_) and runc ignores it",
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

// DifferentialReport is the outcome of a differential run.
type DifferentialReport struct {
	Figures *Figures
	// Accepted cases, and how many pass every validator.
	Accepted, Passed int
	// Bugs lists each error Kubernetes found in an accepted case.
	Bugs []string
	// Rejected cases, and how many Kubernetes rejects too.
	Rejected, AlsoRejected int
	// Checkable counts rejected cases with a finding of a rule the API server checks.
	Checkable, CheckableRejected int
	// Webhooks says whether the training-operator module's verdicts were there; WithWebhooks
	// counts rejected cases that Kubernetes or a webhook rejects.
	Webhooks     bool
	WithWebhooks int
	// ByRule counts, per library rule, rejected cases and those Kubernetes rejects too.
	ByRule map[string][2]int
	// Disagreements lists each rejected case Kubernetes accepts: file, findings, verdict.
	Disagreements []string
}

// RunDifferential validates the differential corpus under dir.
func RunDifferential(dir string) (*DifferentialReport, error) {
	d, err := corpus.ReadDifferential(dir)
	if err != nil {
		return nil, err
	}
	webhooks, err := readWebhookVerdicts(dir)
	if err != nil {
		return nil, err
	}
	r := &DifferentialReport{Figures: NewFigures(), ByRule: map[string][2]int{}, Webhooks: webhooks != nil}
	check := func(c corpus.Case) []Problem {
		var problems []Problem
		for _, doc := range c.Docs {
			problems = append(problems, Check(doc, r.Figures)...)
		}
		return problems
	}
	for _, c := range d.Accepted {
		r.Accepted++
		problems := check(c)
		if len(problems) == 0 {
			r.Passed++
		}
		for _, p := range problems {
			r.Bugs = append(r.Bugs, fmt.Sprintf("library bug: emitted %s, which Kubernetes rejects: %s", c.File, p))
		}
	}
	for _, c := range d.Rejected {
		r.Rejected++
		rejected := len(check(c)) > 0
		if isCheckable(c.Findings) {
			r.Checkable++
			if rejected {
				r.CheckableRejected++
			}
		}
		webhookErrs := webhooks[filepath.Base(c.File)]
		if rejected {
			r.AlsoRejected++
		} else {
			verdict := "Kubernetes: accepted"
			if len(webhookErrs) > 0 {
				verdict = "Kubernetes: accepted; training-operator webhook: " + strings.Join(webhookErrs, " | ")
			}
			r.Disagreements = append(r.Disagreements, fmt.Sprintf("%s: library: %s; %s", filepath.Base(c.File), findingsText(c.Findings), verdict))
		}
		if rejected || len(webhookErrs) > 0 {
			r.WithWebhooks++
		}
		for _, rule := range rulesOf(c.Findings) {
			n := r.ByRule[rule]
			n[0]++
			if rejected {
				n[1]++
			}
			r.ByRule[rule] = n
		}
	}
	return r, nil
}

// Summary is the agreement lines the run prints.
func (r *DifferentialReport) Summary() []string {
	lines := []string{fmt.Sprintf("agreement: accepted %d/%d pass the real validators; rejected %d/%d also rejected by Kubernetes",
		r.Passed, r.Accepted, r.AlsoRejected, r.Rejected)}
	if r.Webhooks {
		lines = append(lines, fmt.Sprintf("agreement with the training-operator webhooks too: rejected %d/%d rejected by Kubernetes or the webhooks", r.WithWebhooks, r.Rejected))
	}
	return append(lines, fmt.Sprintf("agreement on rules the API server checks: rejected %d/%d also rejected by Kubernetes (the other %d cases have only kubelet, runtime or app findings)",
		r.CheckableRejected, r.Checkable, r.Rejected-r.Checkable))
}

// Lines is the whole report: figures, per-rule counts, disagreements, summary.
func (r *DifferentialReport) Lines() []string {
	lines := r.Figures.Lines()
	rules := make([]string, 0, len(r.ByRule))
	for rule := range r.ByRule {
		rules = append(rules, rule)
	}
	sort.Strings(rules)
	for _, rule := range rules {
		n := r.ByRule[rule]
		note := ""
		if reason, ok := beyondRule(rule); ok {
			note = " (beyond object validation: " + reason + ")"
		}
		lines = append(lines, fmt.Sprintf("rule %s: %d rejected cases, %d also rejected by Kubernetes%s", rule, n[0], n[1], note))
	}
	for _, d := range r.Disagreements {
		lines = append(lines, "disagreement: "+d)
	}
	return append(lines, r.Summary()...)
}

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
