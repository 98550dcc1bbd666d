package kube

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestValidateDerived proves each kind goes through its validator: a valid object of each kind
// passes, and one wrong field of each is refused with Kubernetes' message.
func TestValidateDerived(t *testing.T) {
	container := map[string]any{"name": "main", "image": "busybox"}
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "job-worker-0", "namespace": "ns"},
		"spec":     map[string]any{"containers": []any{container}}}
	service := map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "job-worker-0", "namespace": "ns"},
		"spec": map[string]any{"clusterIP": "None", "selector": map[string]any{"a": "b"},
			"ports": []any{map[string]any{"name": "port", "port": 23456}}}}
	template := map[string]any{"spec": map[string]any{"restartPolicy": "Never", "containers": []any{container}}}
	job := map[string]any{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"name": "js-node-0", "namespace": "ns"},
		"spec":     map[string]any{"template": template}}
	statefulSet := map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": map[string]any{"generateName": "ws-", "namespace": "ns"},
		"spec": map[string]any{"serviceName": "", "selector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}},
				"spec": map[string]any{"containers": []any{container}}}}}
	for _, c := range []struct {
		kind   string
		object map[string]any
		mutate func(map[string]any)
		want   string
	}{
		{"Pod", pod, func(o map[string]any) { corpus.Map(o["metadata"])["name"] = "Job-worker-0" },
			`metadata.name: Invalid value: "Job-worker-0": a lowercase RFC 1123 subdomain`},
		{"Service", service, func(o map[string]any) {
			corpus.Map(corpus.Slice(corpus.Map(o["spec"])["ports"])[0])["name"] = "Port"
		}, `spec.ports[0].name: Invalid value: "Port": a lowercase RFC 1123 label`},
		{"Job", job, func(o map[string]any) {
			corpus.Map(corpus.Map(o["spec"])["template"].(map[string]any)["spec"])["restartPolicy"] = "Always"
		}, `spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"StatefulSet", statefulSet, func(o map[string]any) {
			corpus.Map(corpus.Map(o["spec"])["template"])["metadata"] = map[string]any{"labels": map[string]any{"a": "c"}}
		}, "spec.template.metadata.labels: Invalid value"},
		{"ConfigMap", map[string]any{"kind": "ConfigMap"}, nil, "no validator for ConfigMap"},
	} {
		if c.mutate != nil {
			if errs := ValidateDerived(corpus.Derived{Controller: "test", Kind: c.kind, Object: c.object}); len(errs) != 0 {
				t.Errorf("valid %s refused: %q", c.kind, errs)
			}
			raw, _ := corpus.JSON(c.object)
			var copied map[string]any
			if err := json.Unmarshal(raw, &copied); err != nil {
				t.Fatal(err)
			}
			c.mutate(copied)
			c.object = copied
		}
		errs := ValidateDerived(corpus.Derived{Controller: "test", Kind: c.kind, Object: c.object})
		if len(errs) != 1 || !strings.HasPrefix(errs[0], c.want) {
			t.Errorf("%s: got %q, expected one error starting %q", c.kind, errs, c.want)
		}
	}
}

// TestDerivedDecisions: each decided family of derived-object refusals names an inventory row
// that gives a reason (a decision is a documented choice, not a silenced error).
func TestDerivedDecisions(t *testing.T) {
	decisions, err := LoadDerivedDecisions(derivedDecided)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../inventory/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no inventory files: %v", err)
	}
	reasons := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var inventory struct {
			Rows []struct {
				ID     string `json:"id"`
				Reason string `json:"reason"`
			} `json:"rows"`
		}
		if err := yaml.Unmarshal(raw, &inventory); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range inventory.Rows {
			reasons[r.ID] = r.Reason
		}
	}
	for _, d := range decisions {
		if reason, ok := reasons[d.Inventory]; !ok || reason == "" {
			t.Errorf("decision for %s %s %s: inventory row %q is missing or gives no reason", d.Controller, d.Kind, d.Field, d.Inventory)
		}
	}
}
