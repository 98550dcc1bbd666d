package trainer

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	schedulingv1 "k8s.io/api/scheduling/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	sigsjson "sigs.k8s.io/json"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// DefaultNamespace is where a namespaced document without metadata.namespace lands: kubectl apply
// without -n sends it to the context's namespace, "default" on a fresh cluster.
const DefaultNamespace = "default"

// IsTrainerKind tells whether a document goes through the trainer's webhooks.
func IsTrainerKind(d corpus.Document) bool {
	if d.APIVersion() != trainer.GroupVersion.String() {
		return false
	}
	_, ok := createSteps[d.Kind()]
	return ok
}

// IsRuntime tells whether a document is a TrainingRuntime or a ClusterTrainingRuntime.
func IsRuntime(d corpus.Document) bool {
	return IsTrainerKind(d) && (d.Kind() == trainer.TrainingRuntimeKind || d.Kind() == trainer.ClusterTrainingRuntimeKind)
}

// isPriorityClass tells whether a document is a PriorityClass, which the Volcano plugin's
// validation looks up (pkg/runtime/framework/plugins/volcano, Validate).
func isPriorityClass(d corpus.Document) bool {
	return d.APIVersion() == schedulingv1.SchemeGroupVersion.String() && d.Kind() == "PriorityClass"
}

// Result is what happened to one trainer document.
type Result struct {
	Document corpus.Document
	// Skipped is true for a runtime the release's objectSelector keeps away from the webhooks.
	Skipped bool
	// Pruned lists the fields the API server would drop (not in the CRD schema).
	Pruned  []string
	Verdict Verdict
	// Note explains a lookup the cluster could not hold (a runtime defined differently by two sets).
	Note string
	// Built is what the TrainJob controller builds for an accepted TrainJob (the oracle's input);
	// BuildError says why it could not.
	Built      *Built
	BuildError error
	// JobSet is the JobSet webhooks' verdict on the built JobSet (nil when nothing was built).
	JobSet *Verdict
}

// JobSetProblem says why the JobSet webhooks refused the built JobSet ("" when they did not).
func (r Result) JobSetProblem() string {
	if r.JobSet == nil || r.JobSet.Allowed {
		return ""
	}
	return fmt.Sprintf("%s: the built JobSet: admission webhook %q denied the request: %s", r.Document.Label(), r.JobSet.Webhook, r.JobSet.Message)
}

// Accepted is true when the API server would store the document as written: no webhook denied
// it and no field of it is pruned.
func (r Result) Accepted() bool { return r.Verdict.Allowed && len(r.Pruned) == 0 }

// Problem says why a document is not accepted, naming it and the webhook.
func (r Result) Problem() string {
	if !r.Verdict.Allowed {
		problem := fmt.Sprintf("%s: admission webhook %q denied the request: %s", r.Document.Label(), r.Verdict.Webhook, r.Verdict.Message)
		if r.Note != "" {
			problem += " (" + r.Note + ")"
		}
		return problem
	}
	if len(r.Pruned) > 0 {
		return fmt.Sprintf("%s: the API server prunes fields not in the %s CRD schema: %v", r.Document.Label(), Release, r.Pruned)
	}
	return ""
}

// Checker runs the webhooks on sets of documents applied together.
type Checker struct {
	schemas Schemas
	scheme  *apiruntime.Scheme
	// builtins are the runtimes a platform cluster has before any set is applied.
	builtins map[key]*seed
	// shared are the runtimes of the whole input set by name, each distinct definition once with
	// the files that write it.
	shared map[key][]*variant
}

// NewChecker returns a checker whose clusters hold the built-in runtimes.
func NewChecker(schemas Schemas, builtins []corpus.Document) (*Checker, error) {
	c := &Checker{schemas: schemas, scheme: NewScheme(), builtins: map[key]*seed{}}
	if err := c.addSeeds(c.builtins, builtins); err != nil {
		return nil, err
	}
	return c, nil
}

// admitted is a document as admission receives it.
type admitted struct {
	doc       corpus.Document
	namespace string
	object    map[string]any
	pruned    []string
}

// key names the object in the fake API server.
func (a admitted) key() key { return key{a.doc.Kind(), a.namespace, a.doc.Name()} }

// admit runs the API server's steps before admission: the CRD's pruning and defaults for trainer
// kinds, and the request's namespace set on a namespaced object.
func (c *Checker) admit(d corpus.Document) (admitted, error) {
	object := d.Object
	var pruned []string
	if IsTrainerKind(d) {
		var err error
		if object, pruned, err = c.schemas.Admit(d.Kind(), d.Object); err != nil {
			return admitted{}, fmt.Errorf("%s: %w", d.Label(), err)
		}
	}
	namespace := ""
	if d.Kind() != trainer.ClusterTrainingRuntimeKind && !isPriorityClass(d) {
		namespace = d.Namespace()
		if namespace == "" {
			namespace = DefaultNamespace
		}
		meta := corpus.Map(object["metadata"])
		if meta == nil {
			meta = map[string]any{}
			object["metadata"] = meta
		}
		meta["namespace"] = namespace
	}
	return admitted{doc: d, namespace: namespace, object: object, pruned: pruned}, nil
}

// seed is an object the fake API server holds: the document and its typed form.
type seed struct {
	admitted
	typed client.Object
}

// newSeed decodes an admitted document into the scheme's type for it, as the API server stores it.
func (c *Checker) newSeed(a admitted) (*seed, error) {
	raw, err := json.Marshal(a.object)
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(a.doc.APIVersion())
	if err != nil {
		return nil, err
	}
	gvk := gv.WithKind(a.doc.Kind())
	object, err := c.scheme.New(gvk)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.doc.Label(), err)
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, object); err != nil {
		return nil, fmt.Errorf("%s: does not decode as %s: %w", a.doc.Label(), gvk.Kind, err)
	}
	typed, ok := object.(client.Object)
	if !ok {
		return nil, fmt.Errorf("%s: %s is not an API object", a.doc.Label(), gvk.Kind)
	}
	return &seed{admitted: a, typed: typed}, nil
}

// addSeeds adds the runtimes and PriorityClasses of docs to seeds, a later one replacing an
// earlier one of the same name.
func (c *Checker) addSeeds(seeds map[key]*seed, docs []corpus.Document) error {
	for _, d := range docs {
		if !IsRuntime(d) && !isPriorityClass(d) {
			continue
		}
		a, err := c.admit(d)
		if err != nil {
			return err
		}
		s, err := c.newSeed(a)
		if err != nil {
			return err
		}
		seeds[a.key()] = s
	}
	return nil
}

// key names an object in the fake API server.
type key struct{ kind, namespace, name string }

// variant is one definition of a runtime name in the input set and the files that write it.
type variant struct {
	seed  *seed
	files map[string]bool
}

// Share records the runtimes of a whole input set, for Check to offer each set the runtimes the
// other sets define.
func (c *Checker) Share(docs []corpus.Document) error {
	c.shared = map[key][]*variant{}
	for _, d := range docs {
		if !IsRuntime(d) {
			continue
		}
		a, err := c.admit(d)
		if err != nil {
			return err
		}
		k := a.key()
		var found *variant
		for _, v := range c.shared[k] {
			if reflect.DeepEqual(v.seed.object, a.object) {
				found = v
				break
			}
		}
		if found == nil {
			s, err := c.newSeed(a)
			if err != nil {
				return err
			}
			found = &variant{seed: s, files: map[string]bool{}}
			c.shared[k] = append(c.shared[k], found)
		}
		found.files[d.File] = true
	}
	return nil
}

// fromOtherSets returns the shared runtimes that files other than the set's define under a name no
// built-in has. A name two of them define differently is left out and returned in ambiguous (which
// one a cluster held would depend on the order of applying).
func (c *Checker) fromOtherSets(set []corpus.Document) (seeds map[key]*seed, ambiguous map[key]string) {
	own := map[string]bool{}
	for _, d := range set {
		own[d.File] = true
	}
	seeds, ambiguous = map[key]*seed{}, map[key]string{}
	for k, variants := range c.shared {
		if _, builtin := c.builtins[k]; builtin {
			continue
		}
		var others []*variant
		for _, v := range variants {
			for f := range v.files {
				if !own[f] {
					others = append(others, v)
					break
				}
			}
		}
		switch {
		case len(others) == 1:
			seeds[k] = others[0].seed
		case len(others) > 1:
			ambiguous[k] = fmt.Sprintf("%s and %s define %s %s differently, so no cluster state holds it for this set",
				others[0].seed.doc.Label(), others[1].seed.doc.Label(), k.kind, k.name)
		}
	}
	return seeds, ambiguous
}

// Check applies one set on a cluster that holds, by name: the built-in runtimes; then the runtimes
// other sets define (Share) under a name no built-in has, since one app's TrainJob may use a
// runtime another app installs, as the upstream Flux examples do; then the set's own runtimes,
// which replace any of the same name (applying a ClusterTrainingRuntime replaces the one there),
// and its PriorityClasses. Each trainer document of the set is then created through the webhooks.
func (c *Checker) Check(ctx context.Context, set []corpus.Document) ([]Result, error) {
	seeds := map[key]*seed{}
	for k, s := range c.builtins {
		seeds[k] = s
	}
	others, ambiguous := c.fromOtherSets(set)
	for k, s := range others {
		seeds[k] = s
	}
	if err := c.addSeeds(seeds, set); err != nil {
		return nil, err
	}
	keys := make([]key, 0, len(seeds))
	for k := range seeds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j])
	})
	// The fake client keeps what it is given: each cluster gets its own copies.
	objects := make([]client.Object, 0, len(keys))
	for _, k := range keys {
		objects = append(objects, seeds[k].typed.DeepCopyObject().(client.Object))
	}
	cluster, err := NewCluster(ctx, c.scheme, objects)
	if err != nil {
		return nil, err
	}
	var results []Result
	for _, d := range set {
		if !IsTrainerKind(d) {
			continue
		}
		a, err := c.admit(d)
		if err != nil {
			return nil, err
		}
		result := Result{Document: d, Pruned: a.pruned, Verdict: Verdict{Allowed: true}}
		if IsRuntime(d) && corpus.Map(corpus.Map(d.Object["metadata"])["labels"])[WebhookValidationLabel] == "disabled" {
			result.Skipped = true
			results = append(results, result)
			continue
		}
		raw, err := json.Marshal(a.object)
		if err != nil {
			return nil, err
		}
		if result.Verdict, err = cluster.Create(ctx, d.Kind(), raw, a.namespace, d.Name()); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Label(), err)
		}
		if ref := runtimeRef(a); ref != nil {
			result.Note = ambiguous[*ref]
			if result.Accepted() {
				result.Built, result.BuildError = cluster.Build(ctx, result.Verdict.Object, a.namespace)
				if result.BuildError == nil && JobSetWebhooks {
					verdict, err := cluster.CreateJobSet(ctx, result.Built.JobSet)
					if err != nil {
						return nil, fmt.Errorf("%s: the built JobSet: %w", d.Label(), err)
					}
					result.JobSet = &verdict
				}
			}
		}
		results = append(results, result)
	}
	return results, nil
}

// runtimeRef is the key of the runtime a TrainJob refers to (after the CRD defaults), or nil.
func runtimeRef(a admitted) *key {
	if a.doc.Kind() != trainer.TrainJobKind {
		return nil
	}
	ref := corpus.Map(corpus.Map(a.object["spec"])["runtimeRef"])
	kind, _ := ref["kind"].(string)
	name, _ := ref["name"].(string)
	namespace := ""
	if kind == trainer.TrainingRuntimeKind {
		namespace = a.namespace
	}
	return &key{kind, namespace, name}
}
