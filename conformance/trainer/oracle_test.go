package trainer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// knownDifferencesFile lists the differences the oracle finds that are being fixed elsewhere. The
// run fails on a difference not in it and on an entry that no longer occurs: the list can only
// shrink.
const knownDifferencesFile = "testdata/oracle-known-differences.json"

// KnownDifference is one entry of the list: the manifest file (without its dump counter), the
// TrainJob, the field and why it is allowed for now.
type KnownDifference struct {
	File   string `json:"file"`
	Job    string `json:"job"`
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

type knownDifferences struct {
	Comment     string            `json:"comment"`
	Differences []KnownDifference `json:"differences"`
}

// dumpCounter is the counter the jest dump appends to a test file's name (test/harness/manifest-dump.ts).
var dumpCounter = regexp.MustCompile(`-\d{4}\.ya?ml$`)

// fileStem names a manifest file in the list: a dump without its counter (it moves when tests
// are added), an example or upstream file by its name.
func fileStem(file string) string {
	base := filepath.Base(file)
	if stem := dumpCounter.ReplaceAllString(base, ""); stem != base {
		return stem
	}
	return base
}

// sourceOf names where a manifest file comes from, for the report.
func sourceOf(file string) string {
	switch {
	case strings.HasPrefix(filepath.Clean(file), filepath.Clean(upstreamDir)):
		return "upstream"
	case dumpCounter.MatchString(filepath.Base(file)):
		return "tests"
	default:
		return "examples"
	}
}

// oracleFigures counts one source.
type oracleFigures struct {
	pairs, recorded, derived, compared, differences int
	// jobSets counts the built JobSets the JobSet webhooks judged; jobSetsRefused those they refused.
	jobSets, jobSetsRefused int
}

// TestOracle builds, for every TrainJob the webhooks accept (the tests', the examples' and the
// upstream corpus), the JobSet Trainer v2.3.0's controller would apply, and compares it with what
// the job's author asked for: the library's recorded intent, or the job's own spec. A job the
// library refuses is never written, so it has nothing to compare.
func TestOracle(t *testing.T) {
	checker, _ := newChecker(t)
	type outcome struct {
		source, file string
		results      []Result
		intents      map[string]Intent
	}
	var outcomes []outcome
	outcomes = append(outcomes, outcome{source: "upstream", file: upstreamDir, results: upstreamResults(t, checker)})
	_, files := libraryResults(t, checker)
	for _, f := range files {
		if f.err != nil {
			continue // TestWebhooks reports it
		}
		intents, err := LoadIntents(f.file)
		if err != nil {
			t.Error(err)
			continue
		}
		outcomes = append(outcomes, outcome{source: sourceOf(f.file), file: f.file, results: f.results, intents: intents})
	}

	known := readKnownDifferences(t)
	matched := make([]int, len(known.Differences))
	figures := map[string]*oracleFigures{"tests": {}, "examples": {}, "upstream": {}}
	checks := map[string]bool{}
	var found []KnownDifference
	for _, o := range outcomes {
		fig := figures[o.source]
		for _, r := range o.results {
			if r.Document.Kind() != "TrainJob" || !r.Accepted() {
				continue
			}
			if r.BuildError != nil {
				t.Errorf("%s: accepted, but %v", r.Document.Label(), r.BuildError)
				continue
			}
			// The JobSet controller's webhooks judge what the Trainer applies. Every job here is one the
			// library wrote (it refuses a job before writing it) or an upstream example the library
			// accepts, so a refusal is a difference: the TrainJob is stored, and never runs.
			if r.JobSet == nil {
				t.Errorf("%s: built, but its JobSet was not sent to the JobSet webhooks", r.Document.Label())
				continue
			}
			fig.jobSets++
			if p := r.JobSetProblem(); p != "" {
				fig.jobSetsRefused++
				t.Errorf("%s (%s): %s", r.Document.Label(), o.source, p)
			}
			b := r.Built
			key := IntentKey(b.TrainJob.Namespace, b.TrainJob.Name)
			intent, recorded := o.intents[key]
			if recorded {
				fig.recorded++
			} else {
				intent = DeriveIntent(b.TrainJob)
				fig.derived++
			}
			fig.pairs++
			cmp := Compare(intent, b)
			fig.compared += cmp.Compared
			for k := range cmp.Checks {
				checks[k] = true
			}
			file := fileStem(r.Document.File)
			for _, d := range cmp.Differences {
				fig.differences++
				entry := KnownDifference{File: file, Job: d.Job, Field: d.Field}
				found = append(found, entry)
				allowed := false
				for i, k := range known.Differences {
					if k.File == entry.File && k.Job == entry.Job && k.Field == entry.Field {
						matched[i]++
						allowed = true
					}
				}
				if !allowed {
					t.Errorf("%s (%s, %s intent): %s", r.Document.Label(), o.source, intent.Source, d)
				} else {
					t.Logf("known difference: %s (%s): %s", r.Document.Label(), o.source, d)
				}
			}
		}
	}
	for i, k := range known.Differences {
		if matched[i] == 0 {
			t.Errorf("%s lists %s %s %q (%s), which no longer occurs: remove it", knownDifferencesFile, k.File, k.Job, k.Field, k.Reason)
		}
	}
	if path := os.Getenv("ORACLE_WRITE_FOUND"); path != "" {
		writeFound(t, path, found)
	}
	total := oracleFigures{}
	for _, source := range []string{"tests", "examples", "upstream"} {
		f := figures[source]
		line := fmt.Sprintf("oracle %s: %d TrainJob/runtime pairs built (%d recorded intents, %d derived from the spec), %d fields compared, %d differences; %d JobSets judged by the JobSet webhooks, %d refused",
			source, f.pairs, f.recorded, f.derived, f.compared, f.differences, f.jobSets, f.jobSetsRefused)
		t.Log(line)
		fmt.Println(line)
		total.pairs += f.pairs
		total.compared += f.compared
		total.differences += f.differences
		total.jobSets += f.jobSets
		total.jobSetsRefused += f.jobSetsRefused
	}
	summary := fmt.Sprintf("oracle: %d pairs built, %d fields compared, %d differences (%d known, listed in %s); %d JobSets judged by the JobSet webhooks, %d refused",
		total.pairs, total.compared, total.differences, len(known.Differences), knownDifferencesFile, total.jobSets, total.jobSetsRefused)
	t.Log(summary)
	fmt.Println(summary)
	if figures["upstream"].pairs == 0 {
		t.Error("no upstream TrainJob was built: the oracle proves nothing")
	}
	oracleChecks = checks
}

// oracleChecks are the kinds of field the last TestOracle compared (for TestFieldTable).
var oracleChecks map[string]bool

func readKnownDifferences(t *testing.T) knownDifferences {
	t.Helper()
	raw, err := os.ReadFile(knownDifferencesFile)
	if err != nil {
		t.Fatal(err)
	}
	var k knownDifferences
	if err := json.Unmarshal(raw, &k); err != nil {
		t.Fatalf("%s: %v", knownDifferencesFile, err)
	}
	return k
}

// writeFound writes the differences found, one per file, job and field, in the list's shape (to
// start the list; the reasons are for a person to write).
func writeFound(t *testing.T, path string, found []KnownDifference) {
	t.Helper()
	seen := map[KnownDifference]bool{}
	var unique []KnownDifference
	for _, f := range found {
		if !seen[f] {
			seen[f] = true
			unique = append(unique, f)
		}
	}
	sort.Slice(unique, func(i, j int) bool {
		a, b := unique[i], unique[j]
		return a.File+a.Job+a.Field < b.File+b.Job+b.Field
	})
	raw, err := json.MarshalIndent(unique, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
