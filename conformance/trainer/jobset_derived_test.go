package trainer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// derivedFigures counts one source of TestJobSetDerived.
type derivedFigures struct {
	jobSets int
	byKind  map[string]int
}

func (f *derivedFigures) line(source string) string {
	kinds := make([]string, 0, len(f.byKind))
	total := 0
	for k, n := range f.byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
		total += n
	}
	sort.Strings(kinds)
	return fmt.Sprintf("%s: %d JobSets, %d derived objects (%s)", source, f.jobSets, total, strings.Join(kinds, ", "))
}

// TestJobSetDerived takes every JobSet the JobSet webhooks accepted in the manifest run (the
// TrainJobs of the tests, the examples and the upstream corpus, as TestOracle builds them) one
// step further: the Service and Jobs the JobSet controller creates from it and the Pods of each
// Job (JobSetDerived), written to DERIVED_DIR/jobset.jsonl for kube/'s TestDerived, which runs
// Kubernetes' own validation on each. A JobSet the JobSet controller cannot reconcile fails here.
func TestJobSetDerived(t *testing.T) {
	checker, _ := newChecker(t)
	type source struct {
		name    string
		results []Result
	}
	sources := []source{{name: "upstream", results: upstreamResults(t, checker)}}
	_, files := libraryResults(t, checker)
	for _, f := range files {
		if f.err == nil {
			sources = append(sources, source{name: sourceOf(f.file), results: f.results})
		}
	}
	figures := map[string]*derivedFigures{}
	var records []corpus.Derived
	for _, s := range sources {
		fig := figures[s.name]
		if fig == nil {
			fig = &derivedFigures{byKind: map[string]int{}}
			figures[s.name] = fig
		}
		for _, r := range s.results {
			if r.JobSet == nil || !r.JobSet.Allowed {
				continue // not built, or refused: TestOracle reports it
			}
			derived, err := JobSetDerived(context.Background(), r.Document.Label(), r.JobSet.Object)
			if err != nil {
				t.Errorf("%s (%s): %v", r.Document.Label(), s.name, err)
				continue
			}
			fig.jobSets++
			for _, d := range derived {
				fig.byKind[d.Kind]++
			}
			records = append(records, derived...)
		}
	}
	path := corpus.DerivedFile(corpus.DerivedDir(), JobSetController)
	if err := corpus.WriteDerived(path, records); err != nil {
		t.Fatal(err)
	}
	all := &derivedFigures{byKind: map[string]int{}}
	for _, name := range []string{"tests", "examples", "upstream"} {
		f := figures[name]
		if f == nil {
			continue
		}
		all.jobSets += f.jobSets
		for k, n := range f.byKind {
			all.byKind[k] += n
		}
		t.Log("jobset derived, " + f.line(name))
	}
	if all.jobSets == 0 {
		t.Fatal("no JobSet accepted by the JobSet webhooks: the run derives nothing")
	}
	summary := "jobset derived (written to " + path + "), " + all.line("all sources")
	t.Log(summary)
	fmt.Println(summary)
}
