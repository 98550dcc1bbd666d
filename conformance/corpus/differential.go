package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Finding is one finding of the library, as the generator writes it next to a rejected case
// (src/rules/finding.ts).
type Finding struct {
	Field   string `json:"field"`
	Value   any    `json:"value"`
	Allowed string `json:"allowed"`
	Rule    string `json:"rule"`
	// Path is the construct path of the finding, when the generator knows it.
	Path string `json:"path,omitempty"`
}

// String is the library's message shape, with the rule id.
func (f Finding) String() string {
	value, _ := json.Marshal(f.Value)
	return fmt.Sprintf("%s is %s; %s (rule %s)", f.Field, value, f.Allowed, f.Rule)
}

// Case is one configuration of the differential corpus: its manifests and, for a rejected one,
// the library's findings.
type Case struct {
	File     string
	Docs     []Document
	Findings []Finding
}

// Differential is the corpus the generator writes: accepted/*.yaml (emitted by the library) and
// rejected/*.yaml with a sibling *.findings.json (rejected by the library for a Kubernetes rule,
// rendered again with the library's Kubernetes checks off).
type Differential struct {
	Accepted []Case
	Rejected []Case
}

// ReadDifferential reads the corpus under dir; a rejected case without its findings is an error.
func ReadDifferential(dir string) (Differential, error) {
	var d Differential
	for _, side := range []string{"accepted", "rejected"} {
		files, err := filepath.Glob(filepath.Join(dir, side, "*.yaml"))
		if err != nil {
			return d, err
		}
		for _, f := range files {
			docs, err := ReadFile(f)
			if err != nil {
				return d, err
			}
			c := Case{File: f, Docs: docs}
			if side == "accepted" {
				d.Accepted = append(d.Accepted, c)
				continue
			}
			raw, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".findings.json")
			if err != nil {
				return d, fmt.Errorf("rejected case %s has no findings: %w", f, err)
			}
			if err := json.Unmarshal(raw, &c.Findings); err != nil {
				return d, fmt.Errorf("findings of %s: %w", f, err)
			}
			d.Rejected = append(d.Rejected, c)
		}
	}
	return d, nil
}
