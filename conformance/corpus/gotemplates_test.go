package corpus

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"text/template"
)

// portID stands for the controller's PortId: a string type of its own, so that Go converts a
// string constant to it and refuses a computed string, as it does for the controller's function.
type portID string

// render parses and runs a template as the Notebooks controller does (kubeflow/notebooks
// workspaces/controller/internal/helper template.go RenderGoTemplate): named "value", with the
// httpPathPrefix function, executed with no data.
func render(text string) error {
	tmpl, err := template.New("value").Funcs(template.FuncMap{"httpPathPrefix": func(portID) string { return "/prefix" }}).Parse(text)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	return tmpl.Execute(&out, nil)
}

// TestGoTemplates holds the library's template rule (src/rules/notebooks/go-template.ts, whose
// verdicts testdata/go-templates.json records and the jest test checks) to Go itself: a template
// the rule refuses fails in Go, one it passes renders, unless marked as left to Go.
func TestGoTemplates(t *testing.T) {
	raw, err := os.ReadFile("../testdata/go-templates.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Template string  `json:"template"`
			Problem  *string `json:"problem"`
			LeftToGo bool    `json:"leftToGo"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 40 {
		t.Fatalf("%d cases: the table is missing", len(table.Cases))
	}
	for _, c := range table.Cases {
		goRefuses := render(c.Template) != nil
		ruleRefuses := c.Problem != nil
		switch {
		case c.LeftToGo && !goRefuses:
			t.Errorf("%q is marked as left to Go, but Go renders it", c.Template)
		case !c.LeftToGo && goRefuses != ruleRefuses:
			t.Errorf("%q: Go refuses it: %v (%v); the rule refuses it: %v", c.Template, goRefuses, render(c.Template), ruleRefuses)
		}
	}
}
