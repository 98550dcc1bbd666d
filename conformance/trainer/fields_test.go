package trainer

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
)

// proof says how the oracle proves a TrainJob field's effect (check: the kind of comparison
// Compare makes), or why it does not (reason).
type proof struct{ check, reason string }

const (
	libraryWritesNone = "the library writes no such field, and nothing in the intent asks for it"
	patchBookkeeping  = "bookkeeping of who owns a runtime patch: no effect on the JobSet"
	runtimeChoice     = "chooses the runtime the JobSet is built from: the input of the build, not an effect in it (the webhook check proves the lookup, TestWiring)"
)

// fieldProofs covers every field of TrainJobSpec (TrainJobFields): what the oracle compares for
// it, or why it compares nothing.
var fieldProofs = map[string]proof{
	"spec.runtimeRef.name":                        {reason: runtimeChoice},
	"spec.runtimeRef.apiGroup":                    {reason: runtimeChoice},
	"spec.runtimeRef.kind":                        {reason: runtimeChoice},
	"spec.initializer.dataset.storageUri":         {check: "initializer.storageUri"},
	"spec.initializer.dataset.env[]":              {check: "initializer.env"},
	"spec.initializer.dataset.secretRef":          {check: "initializer.secretRef"},
	"spec.initializer.model.storageUri":           {check: "initializer.storageUri"},
	"spec.initializer.model.env[]":                {check: "initializer.env"},
	"spec.initializer.model.secretRef":            {check: "initializer.secretRef"},
	"spec.trainer.image":                          {check: "image"},
	"spec.trainer.command[]":                      {check: "command"},
	"spec.trainer.args[]":                         {check: "args"},
	"spec.trainer.env[]":                          {check: "env"},
	"spec.trainer.numNodes":                       {check: "nodes"},
	"spec.trainer.resourcesPerNode":               {check: "resources"},
	"spec.trainer.numProcPerNode":                 {check: "processes"},
	"spec.runtimePatches[].manager":               {reason: patchBookkeeping},
	"spec.runtimePatches[].time":                  {reason: patchBookkeeping},
	patch + "metadata.labels":                     {check: "jobSetMetadata"},
	patch + "metadata.annotations":                {check: "jobSetMetadata"},
	patch + "spec.replicatedJobs[].name":          {check: "pods"},
	job + "metadata.labels":                       {reason: libraryWritesNone + " (Job metadata)"},
	job + "metadata.annotations":                  {reason: libraryWritesNone + " (Job metadata)"},
	pod + "metadata.labels":                       {check: "podLabels"},
	pod + "metadata.annotations":                  {check: "podAnnotations"},
	pod + "spec.serviceAccountName":               {check: "serviceAccountName"},
	pod + "spec.volumes[]":                        {check: "mounts"},
	pod + "spec.initContainers[].name":            {reason: libraryWritesNone},
	pod + "spec.initContainers[].env[]":           {reason: libraryWritesNone},
	pod + "spec.initContainers[].volumeMounts[]":  {reason: libraryWritesNone},
	pod + "spec.initContainers[].securityContext": {reason: libraryWritesNone},
	pod + "spec.containers[].name":                {check: "mounts"},
	pod + "spec.containers[].env[]":               {reason: "the Trainer webhook refuses env of the node and initializer containers in a patch (spec.trainer.env and the initializers' env carry it); " + libraryWritesNone},
	pod + "spec.containers[].volumeMounts[]":      {check: "mounts"},
	pod + "spec.containers[].securityContext":     {reason: libraryWritesNone},
	pod + "spec.imagePullSecrets[]":               {reason: libraryWritesNone},
	pod + "spec.securityContext":                  {reason: libraryWritesNone},
	pod + "spec.nodeSelector":                     {check: "nodeSelector"},
	pod + "spec.affinity":                         {reason: libraryWritesNone},
	pod + "spec.tolerations[]":                    {check: "tolerations"},
	pod + "spec.schedulingGates[]":                {reason: libraryWritesNone},
	pod + "spec.terminationGracePeriodSeconds":    {reason: libraryWritesNone},
	"spec.suspend":                                {check: "suspend"},
	"spec.activeDeadlineSeconds":                  {reason: "controller behaviour: the TrainJob controller fails the job and deletes its JobSet after the deadline; nothing of it is in the JobSet"},
	"spec.managedBy":                              {reason: "controller behaviour: names the controller that reconciles the job (MultiKueue); nothing of it is in the JobSet"},
}

const (
	patch = "spec.runtimePatches[].trainingRuntimeSpec.template."
	job   = patch + "spec.replicatedJobs[].template."
	pod   = job + "spec.template."
)

// TrainJobFields lists the fields of the pinned TrainJobSpec down to the Kubernetes types it
// holds (an EnvVar list, ResourceRequirements, a Volume are one field each; object metadata is
// its labels and annotations, all a patch may carry).
func TrainJobFields() []string {
	var out []string
	apiPkg := reflect.TypeOf(trainer.TrainJob{}).PkgPath()
	var walk func(tp reflect.Type, path string)
	walk = func(tp reflect.Type, path string) {
		for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice {
			if tp.Kind() == reflect.Slice {
				path += "[]"
			}
			tp = tp.Elem()
		}
		switch {
		case tp == reflect.TypeOf(metav1.ObjectMeta{}):
			out = append(out, path+".labels", path+".annotations")
		case tp.Kind() != reflect.Struct || tp.PkgPath() != apiPkg:
			out = append(out, path)
		default:
			for i := 0; i < tp.NumField(); i++ {
				f := tp.Field(i)
				walk(f.Type, path+"."+strings.Split(f.Tag.Get("json"), ",")[0])
			}
		}
	}
	walk(reflect.TypeOf(trainer.TrainJobSpec{}), "spec")
	return out
}

// inSchema tells whether a field path is in a structural schema.
func inSchema(s *structuralschema.Structural, path string) bool {
	for _, part := range strings.Split(path, ".") {
		name := strings.TrimSuffix(part, "[]")
		prop, ok := s.Properties[name]
		if !ok {
			return false
		}
		s = &prop
		if strings.HasSuffix(part, "[]") {
			if s.Items == nil {
				return false
			}
			s = s.Items
		}
	}
	return true
}

// fieldTable is the README's table of the fields, as markdown.
func fieldTable(fields []string) (string, int, int) {
	var b strings.Builder
	proven := 0
	b.WriteString("| TrainJob field | Proven by the oracle | How, or why not |\n| --- | --- | --- |\n")
	for _, f := range fields {
		p := fieldProofs[f]
		if p.check != "" {
			proven++
			fmt.Fprintf(&b, "| `%s` | yes | `%s` comparison |\n", f, p.check)
		} else {
			fmt.Fprintf(&b, "| `%s` | no | %s |\n", f, p.reason)
		}
	}
	return b.String(), proven, len(fields) - proven
}

const (
	readme           = "../README.md"
	fieldTableBegin  = "<!-- oracle field table: written by TestFieldTable (UPDATE_FIELD_TABLE=1) -->\n"
	fieldTableEnd    = "<!-- end of the oracle field table -->\n"
	fieldTableUpdate = "UPDATE_FIELD_TABLE"
)

// TestFieldTable keeps the README's table of TrainJob fields true: every field of the pinned
// TrainJobSpec (each in the pinned CRD's schema) is proven by a comparison the oracle makes, or
// says why not; each comparison named runs on testdata/oracle/every-field.yaml and finds no
// difference there.
func TestFieldTable(t *testing.T) {
	schemas, err := LoadSchemas(crdsDir)
	if err != nil {
		t.Fatal(err)
	}
	fields := TrainJobFields()
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f] = true
		if !inSchema(schemas[trainer.TrainJobKind], f) {
			t.Errorf("%s is not in the pinned TrainJob CRD's schema", f)
		}
		p, ok := fieldProofs[f]
		switch {
		case !ok:
			t.Errorf("%s: no entry in fieldProofs: say what the oracle compares for it, or why nothing", f)
		case (p.check == "") == (p.reason == ""):
			t.Errorf("%s: give a check or a reason, one of them", f)
		}
	}
	for f := range fieldProofs {
		if !seen[f] {
			t.Errorf("fieldProofs names %s, which TrainJobSpec does not have", f)
		}
	}

	checker, _ := newChecker(t)
	path, docs := oracleFixture(t, "every-field.yaml")
	results, err := checker.Check(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]bool{}
	for _, r := range results {
		if !r.Accepted() {
			t.Fatalf("not accepted: %s", r.Problem())
		}
		if r.Document.Kind() != trainer.TrainJobKind {
			continue
		}
		if r.BuildError != nil {
			t.Fatal(r.BuildError)
		}
		cmp := Compare(DeriveIntent(r.Built.TrainJob), r.Built)
		for _, d := range cmp.Differences {
			t.Errorf("difference on %s: %s", path, d)
		}
		for k := range cmp.Checks {
			checks[k] = true
		}
	}
	var missing []string
	for f, p := range fieldProofs {
		if p.check != "" && !checks[p.check] {
			missing = append(missing, fmt.Sprintf("%s (%s)", f, p.check))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("comparisons the table names that did not run on %s: %s", path, strings.Join(missing, ", "))
	}

	table, proven, notProven := fieldTable(fields)
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	begin := strings.Index(string(text), fieldTableBegin)
	end := strings.Index(string(text), fieldTableEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no oracle field table between %q and %q", readme, fieldTableBegin, fieldTableEnd)
	}
	summary := fmt.Sprintf("%d TrainJob fields: the oracle proves the effect of %d, not of %d.\n\n", len(fields), proven, notProven)
	want := string(text[:begin]) + fieldTableBegin + summary + table + fieldTableEnd + string(text[end+len(fieldTableEnd):])
	if want != string(text) {
		if os.Getenv(fieldTableUpdate) != "" {
			if err := os.WriteFile(readme, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("%s: the oracle field table is stale; run `%s=1 go test -run TestFieldTable ./...` in conformance/trainer", readme, fieldTableUpdate)
		}
	}
	t.Log(strings.TrimSpace(summary))
}
