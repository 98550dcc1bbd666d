// Package corpus reads what the library emitted: folders of multi-document YAML files (the
// manifests jest dumps, `npm run synth` output) and the differential corpus the generator writes.
// It knows nothing about Kubernetes' validation, so both conformance modules (Kubernetes 1.34 and
// the training operator, which need different versions of the Kubernetes libraries) share it.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Document is one YAML document of a file, as JSON-shaped data.
type Document struct {
	// File is the path of the file, as found under the folder given.
	File string
	// Index is the position of the document in its file, from 0.
	Index int
	// Object is the document decoded into maps, slices and scalars.
	Object map[string]any
}

// APIVersion of the document, or "".
func (d Document) APIVersion() string { return str(d.Object["apiVersion"]) }

// Kind of the document, or "".
func (d Document) Kind() string { return str(d.Object["kind"]) }

// Name is metadata.name, or "".
func (d Document) Name() string { return str(Map(d.Object["metadata"])["name"]) }

// Namespace is metadata.namespace, or "".
func (d Document) Namespace() string { return str(Map(d.Object["metadata"])["namespace"]) }

// Label names the document in a report: `file#index Kind namespace/name`.
func (d Document) Label() string {
	ns := d.Namespace()
	if ns == "" {
		ns = "(no namespace)"
	}
	return fmt.Sprintf("%s#%d %s %s/%s", d.File, d.Index, d.Kind(), ns, d.Name())
}

// JSON encodes any part of a document, for decoding into Kubernetes' typed structs.
func JSON(v any) ([]byte, error) { return json.Marshal(v) }

// Map returns v as a map, or nil.
func Map(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// Slice returns v as a slice, or nil.
func Slice(v any) []any {
	s, _ := v.([]any)
	return s
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Dirs splits a list of folders given in an environment variable (separated like PATH); when the
// variable is unset or empty it returns the fallback.
func Dirs(env string, fallback ...string) []string {
	value := strings.TrimSpace(os.Getenv(env))
	if value == "" {
		return fallback
	}
	var dirs []string
	for _, d := range filepath.SplitList(value) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// YAMLFiles lists every .yaml or .yml file under dir, sorted, skipping folders whose name starts
// with "." or that are called node_modules.
func YAMLFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != dir && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// ReadFile decodes every non-empty document of a multi-document YAML file.
func ReadFile(path string) ([]Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode decodes every non-empty document of a YAML stream; file names the stream in reports.
//
// It reads YAML as kubectl does: documents split at "---" lines (k8s.io/apimachinery's
// YAMLReader), each converted with sigs.k8s.io/yaml, whose YAML 1.1 rules turn an unquoted `6_`
// or `yes` into a number or a boolean. A value the library writes unquoted that kubectl would read
// as another type therefore fails here too.
func Decode(file string, data []byte) ([]Document, error) {
	var docs []Document
	for i, chunk := range splitDocuments(data) {
		raw, err := yaml.YAMLToJSON(chunk)
		if err != nil {
			return docs, fmt.Errorf("%s: document %d: %w", file, i, err)
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		var object map[string]any
		if err := json.Unmarshal(raw, &object); err != nil {
			return docs, fmt.Errorf("%s: document %d is not a mapping: %w", file, i, err)
		}
		docs = append(docs, Document{File: file, Index: i, Object: object})
	}
	return docs, nil
}

// splitDocuments cuts a stream at its "---" separator lines.
func splitDocuments(data []byte) [][]byte {
	var chunks [][]byte
	var current bytes.Buffer
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for s.Scan() {
		line := s.Text()
		if strings.TrimRight(line, " \t") == "---" {
			chunks = append(chunks, append([]byte(nil), current.Bytes()...))
			current.Reset()
			continue
		}
		current.WriteString(line)
		current.WriteByte('\n')
	}
	return append(chunks, current.Bytes())
}

// ReadDirs decodes every document of every YAML file under the folders, in a stable order. A
// folder that does not exist is an error: a conformance run that silently checks nothing proves
// nothing.
func ReadDirs(dirs []string) ([]Document, error) {
	var all []Document
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("manifest folder %s: %w", dir, err)
		}
		files, err := YAMLFiles(dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			docs, err := ReadFile(f)
			if err != nil {
				return nil, err
			}
			all = append(all, docs...)
		}
	}
	return all, nil
}
