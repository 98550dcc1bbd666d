package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// The leaf-path fuzz corpus (scripts/leaf-fuzz.ts): docs/<n>.yaml, one document each, under
// FUZZ_DIR. Each Go module writes its verdicts beside them, verdicts-<module>.json: per file, per
// source (kubernetes, crd-schema, training-operator, trainer), the errors it reported (an empty
// list: the source judged the document and accepted it; no entry: the source does not apply).

// FuzzVerdicts maps a document's file name to the errors each source reported.
type FuzzVerdicts map[string]map[string][]string

// Judged records that a source judged a file, with the errors it reported (none: accepted).
func (v FuzzVerdicts) Judged(file, source string, errs []string) {
	if v[file] == nil {
		v[file] = map[string][]string{}
	}
	v[file][source] = append(append([]string{}, v[file][source]...), errs...)
}

// FuzzDir is FUZZ_DIR, or the default relative to a module's folder.
func FuzzDir() string {
	if dir := os.Getenv("FUZZ_DIR"); dir != "" {
		return dir
	}
	return "../../test-reports/fuzz"
}

// ReadFuzz reads the fuzz corpus's documents in file order; no documents is an error (a run that
// checks nothing proves nothing).
func ReadFuzz(dir string) ([]Document, error) {
	files, err := filepath.Glob(filepath.Join(dir, "docs", "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var docs []Document
	for _, f := range files {
		read, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		if len(read) != 1 {
			return nil, fmt.Errorf("%s: expected one document, found %d", f, len(read))
		}
		read[0].File = filepath.Base(f)
		docs = append(docs, read[0])
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no fuzz documents under %s (run scripts/leaf-fuzz.ts first)", filepath.Join(dir, "docs"))
	}
	return docs, nil
}

// WriteFuzzVerdicts writes a module's verdicts to verdicts-<module>.json under dir.
func WriteFuzzVerdicts(dir, module string, v FuzzVerdicts) error {
	raw, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "verdicts-"+module+".json"), append(raw, '\n'), 0o644)
}
