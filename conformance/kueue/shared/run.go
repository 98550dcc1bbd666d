package shared

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Folders the manifests come from, relative to a release's module (conformance/kueue/<version>),
// when MANIFESTS_DIR is not set: what jest dumps and what `npm run synth` writes.
var defaultManifestDirs = []string{"../../../test-reports/manifests", "../../../dist"}

// FixturesDir holds the hand-written Kueue documents (valid/ and invalid/), relative to a
// release's module.
const FixturesDir = "../../testdata/kueue"

// figures counts one run.
type figures struct {
	documents, accepted, refused, webhooked, converted int
	byVersion, byKind                                  map[string]int
}

func newFigures() *figures {
	return &figures{byVersion: map[string]int{}, byKind: map[string]int{}}
}

func (f *figures) add(v Verdict) {
	f.documents++
	f.byVersion[v.Doc.APIVersion()]++
	f.byKind[v.Doc.Kind()]++
	if v.Accepted {
		f.accepted++
	} else {
		f.refused++
	}
	if len(v.Webhooks) > 0 {
		f.webhooked++
	}
	if v.Converted {
		f.converted++
	}
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", strings.TrimPrefix(k, Group+"/"), m[k])
	}
	return strings.Join(parts, ", ")
}

// Summary is the line a run prints per release.
func (f *figures) summary(release, what string) string {
	return fmt.Sprintf("kueue %s, %s: %d documents, %d accepted, %d refused (versions: %s; kinds: %s; %d through webhooks, %d through the conversion webhook)",
		release, what, f.documents, f.accepted, f.refused, counts(f.byVersion), counts(f.byKind), f.webhooked, f.converted)
}

// TestLibrary judges every Kueue document the tests and the examples write. The agreement rule:
// the library wrote each of them, so each must be accepted; a refusal fails with its step and
// message. A run that finds no Kueue document fails too: it would prove nothing.
func TestLibrary(t *testing.T, r *Release) {
	dirs := corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...)
	docs, err := corpus.ReadDirs(dirs)
	if err != nil {
		t.Fatalf("%v\n(run the jest suite and `npm run synth` first, or set MANIFESTS_DIR)", err)
	}
	f := newFigures()
	for _, d := range docs {
		if !IsKueue(d) {
			continue
		}
		v, err := r.Judge(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		f.add(v)
		if !v.Accepted {
			t.Errorf("library document refused by Kueue %s: %s", r.Version, v)
		}
	}
	if f.documents == 0 {
		t.Fatalf("no %s documents under %s", Group, strings.Join(dirs, ", "))
	}
	fmt.Println(f.summary(r.Version, "the library's documents"))
}

// TestFixtures is the control: every valid fixture is accepted, and every invalid fixture is
// refused by the step and with the whole message its `# expect-kueue: <step>: <message>` line names
// (a line `# expect-kueue@<version>: ...` holds for that release only).
func TestFixtures(t *testing.T, r *Release) {
	f := newFigures()
	valid, _ := filepath.Glob(filepath.Join(FixturesDir, "valid", "*.yaml"))
	invalid, _ := filepath.Glob(filepath.Join(FixturesDir, "invalid", "*.yaml"))
	if len(valid) == 0 || len(invalid) == 0 {
		t.Fatalf("no fixtures under %s (valid %d, invalid %d)", FixturesDir, len(valid), len(invalid))
	}
	judge := func(file string) []Verdict {
		docs, err := corpus.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var out []Verdict
		for _, d := range docs {
			v, err := r.Judge(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			f.add(v)
			out = append(out, v)
		}
		return out
	}
	for _, file := range valid {
		for _, v := range judge(file) {
			if !v.Accepted {
				t.Errorf("valid fixture refused by Kueue %s: %s", r.Version, v)
			}
		}
	}
	for _, file := range invalid {
		expected := expectations(t, file, r.Version)
		verdicts := judge(file)
		if len(verdicts) != 1 || len(expected) != 1 {
			t.Errorf("%s: an invalid fixture holds one document and one expectation for %s (documents %d, expectations %d)", file, r.Version, len(verdicts), len(expected))
			continue
		}
		v := verdicts[0]
		step, text, _ := strings.Cut(expected[0], ": ")
		if v.Accepted || v.Step != step || v.Message != text {
			t.Errorf("%s on Kueue %s:\nexpected refused by %s with %q\ngot %s", file, r.Version, step, text, v)
		}
	}
	fmt.Println(f.summary(r.Version, fmt.Sprintf("fixtures (%d valid, %d invalid files)", len(valid), len(invalid))))
}

// expectations reads the `# expect-kueue:` lines of a fixture, and those for the release given.
func expectations(t *testing.T, file, version string) []string {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []string
	s := bufio.NewScanner(fh)
	for s.Scan() {
		line := s.Text()
		for _, prefix := range []string{"# expect-kueue: ", "# expect-kueue@" + version + ": "} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				out = append(out, rest)
			}
		}
	}
	return out
}
