package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Derived objects: what a controller builds from a document the library wrote (the Pods and
// Services the training operator creates from a v1 job, the Jobs and Pods of the JobSet a TrainJob
// becomes, the StatefulSet and Service of a Workspace). The module that holds the controller's code
// builds them and writes them as JSON lines; the Kubernetes module, which holds Kubernetes'
// validation, reads them back and validates each by its kind. Two modules, because the
// controllers and k8s.io/kubernetes need different versions of the Kubernetes libraries.

// Derived is one object a controller built from a source document.
type Derived struct {
	// Controller names what built it: training-operator, jobset, notebooks.
	Controller string
	// From is the source document's Document.Label() (manifests), or the fuzz document's file
	// name (the fuzz corpus, as the verdicts key it).
	From string
	// Kind of the built object: Pod, Service, Job, StatefulSet...
	Kind string
	// Object is the built object as v1 JSON-shaped data.
	Object map[string]any
}

// DerivedDir is DERIVED_DIR, or the default relative to a module's folder.
func DerivedDir() string {
	if dir := os.Getenv("DERIVED_DIR"); dir != "" {
		return dir
	}
	return "../../test-reports/derived"
}

// DerivedFile is the file a controller's derived objects of the manifests are written to.
func DerivedFile(dir, controller string) string {
	return filepath.Join(dir, controller+".jsonl")
}

// FuzzDerivedFile is the file a controller's derived objects of the fuzz corpus are written to.
func FuzzDerivedFile(fuzzDir, controller string) string {
	return filepath.Join(fuzzDir, "derived-"+controller+".jsonl")
}

// WriteDerived writes the records as JSON lines, creating the file's folder. An empty list still
// writes the (empty) file: "the controller built nothing" differs from "the producer never ran".
func WriteDerived(path string, records []Derived) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var out bytes.Buffer
	for _, r := range records {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", r.From, r.Controller, r.Kind, err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// ReadDerivedFile reads one file of JSON lines.
func ReadDerivedFile(path string) ([]Derived, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var records []Derived
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1024*1024), 256*1024*1024)
	for n := 1; s.Scan(); n++ {
		line := bytes.TrimSpace(s.Bytes())
		if len(line) == 0 {
			continue
		}
		var r Derived
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		records = append(records, r)
	}
	return records, s.Err()
}

// ReadDerived reads every <controller>.jsonl of dir (not the fuzz corpus's derived-*.jsonl), in
// file order. A missing folder is an error: a run that validates nothing proves nothing.
func ReadDerived(dir string) ([]Derived, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("derived objects folder %s: %w", dir, err)
	}
	sort.Strings(files)
	var all []Derived
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "derived-") {
			continue
		}
		records, err := ReadDerivedFile(f)
		if err != nil {
			return nil, err
		}
		all = append(all, records...)
	}
	return all, nil
}
