package kube

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // registers apps/v1 defaults and conversions
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install" // registers batch/v1 defaults and conversions
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	sigsjson "sigs.k8s.io/json"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// ValidateDerived validates an object a controller built (corpus.Derived) the way the API server
// validates it on create, by kind, with Kubernetes' own code:
//
//   - the generic steps of every create (apiserver's Store.Create and rest.BeforeCreate): a name
//     generated from generateName, the namespace of the request ("default" when the object names
//     none), then the kind's strategy, then ValidateObjectMetaAccessor's path-segment name check;
//   - Pod: v1 defaults, the ServiceAccount admission, conversion, DropDisabledPodFields,
//     ValidatePodCreate (pkg/registry/core/pod);
//   - Service: v1 defaults, conversion, what the storage allocates before validating
//     (allocateService), ValidateServiceCreate (pkg/registry/core/service; the TrafficDistribution
//     gate the strategy consults is on in 1.34, so nothing is dropped);
//   - Job: v1 defaults, conversion, the strategy's PrepareForCreate (the generated selector and the
//     job-name and controller-uid template labels, with a fixed UID; disabled template fields
//     dropped), ValidateJob with the strategy's options (pkg/registry/batch/job);
//   - StatefulSet: v1 defaults, conversion, disabled template fields dropped, ValidateStatefulSet
//     (pkg/registry/apps/statefulset);
//   - any other kind: one "no validator for <Kind>" error, so a producer cannot slip an object past.
//
// The registry packages themselves are not imported: they pull storage code this module's build
// list does not hold; the steps above are theirs, one call each.
func ValidateDerived(d corpus.Derived) []string {
	var errs field.ErrorList
	var meta *metav1.ObjectMeta
	switch d.Kind {
	case "Pod":
		versioned := &corev1.Pod{}
		if e := decodeDerived(d, versioned); e != nil {
			return []string{e.Error()}
		}
		createMeta(&versioned.ObjectMeta)
		meta = &versioned.ObjectMeta
		errs = validateV1Pod(versioned, field.NewPath("pod"))
	case "Service":
		versioned := &corev1.Service{}
		if e := decodeDerived(d, versioned); e != nil {
			return []string{e.Error()}
		}
		createMeta(&versioned.ObjectMeta)
		legacyscheme.Scheme.Default(versioned)
		internal := &core.Service{}
		if err := legacyscheme.Scheme.Convert(versioned, internal, nil); err != nil {
			return []string{fmt.Sprintf("does not convert to the internal Service: %v", err)}
		}
		internal.Status = core.ServiceStatus{}
		allocateService(internal)
		meta = &versioned.ObjectMeta
		errs = corevalidation.ValidateServiceCreate(internal)
	case "Job":
		versioned := &batchv1.Job{}
		if e := decodeDerived(d, versioned); e != nil {
			return []string{e.Error()}
		}
		createMeta(&versioned.ObjectMeta)
		legacyscheme.Scheme.Default(versioned)
		internal := &batch.Job{}
		if err := legacyscheme.Scheme.Convert(versioned, internal, nil); err != nil {
			return []string{fmt.Sprintf("does not convert to the internal Job: %v", err)}
		}
		prepareJobForCreate(internal)
		opts := batchvalidation.JobValidationOptions{
			PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&internal.Spec.Template, nil),
			RequirePrefixedLabels: true,
		}
		meta = &versioned.ObjectMeta
		errs = batchvalidation.ValidateJob(internal, opts)
	case "StatefulSet":
		versioned := &appsv1.StatefulSet{}
		if e := decodeDerived(d, versioned); e != nil {
			return []string{e.Error()}
		}
		createMeta(&versioned.ObjectMeta)
		legacyscheme.Scheme.Default(versioned)
		internal := &apps.StatefulSet{}
		if err := legacyscheme.Scheme.Convert(versioned, internal, nil); err != nil {
			return []string{fmt.Sprintf("does not convert to the internal StatefulSet: %v", err)}
		}
		internal.Status = apps.StatefulSetStatus{}
		podutil.DropDisabledTemplateFields(&internal.Spec.Template, nil)
		meta = &versioned.ObjectMeta
		errs = appsvalidation.ValidateStatefulSet(internal, podutil.GetValidationOptionsFromPodTemplate(&internal.Spec.Template, nil))
	default:
		return []string{fmt.Sprintf("no validator for %s", d.Kind)}
	}
	// rest.BeforeCreate runs the generic metadata check only once the strategy's validation passed.
	if len(errs) == 0 {
		errs = pathSegmentName(meta)
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func decodeDerived(d corpus.Derived, into any) error {
	raw, err := corpus.JSON(d.Object)
	if err != nil {
		return err
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, into); err != nil {
		return fmt.Errorf("does not decode as a v1 %s: %v", d.Kind, err)
	}
	return nil
}

// generatedSuffix stands for the five random characters the API server appends to generateName
// (names.SimpleNameGenerator, which first cuts the prefix to 58 characters).
const generatedSuffix = "b2c4d"

// derivedUID stands for the UID the API server gives the object on create.
const derivedUID = types.UID("00000000-0000-4000-8000-000000000000")

// createMeta applies what Store.Create does to the metadata before the strategy runs.
func createMeta(meta *metav1.ObjectMeta) {
	if meta.Name == "" && meta.GenerateName != "" {
		prefix := meta.GenerateName
		if len(prefix) > 58 {
			prefix = prefix[:58]
		}
		meta.Name = prefix + generatedSuffix
	}
	if meta.Namespace == "" {
		meta.Namespace = "default"
	}
	meta.UID = derivedUID
}

// pathSegmentName is rest.BeforeCreate's last check: a name must be usable as a URL path segment.
func pathSegmentName(meta *metav1.ObjectMeta) field.ErrorList {
	return genericvalidation.ValidateObjectMetaAccessor(meta, true, path.ValidatePathSegmentName, field.NewPath("metadata"))
}

// allocateService is what the Service storage's create does before validation
// (pkg/registry/core/service/storage: normalizeClusterIPs, then the allocators'
// initIPFamilyFields and allocation), for a single-stack IPv4 cluster: clusterIPs from clusterIP,
// the default IP family policy (RequireDualStack for a headless service without a selector,
// SingleStack otherwise) and family, a cluster IP and node ports where none is given.
func allocateService(svc *core.Service) {
	if svc.Spec.Type == core.ServiceTypeExternalName {
		return
	}
	if len(svc.Spec.ClusterIP) > 0 && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	headlessSelectorless := svc.Spec.ClusterIP == core.ClusterIPNone && len(svc.Spec.Selector) == 0
	if svc.Spec.IPFamilyPolicy == nil {
		policy := core.IPFamilyPolicySingleStack
		if headlessSelectorless {
			policy = core.IPFamilyPolicyRequireDualStack
		}
		svc.Spec.IPFamilyPolicy = &policy
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []core.IPFamily{core.IPv4Protocol}
		if headlessSelectorless && *svc.Spec.IPFamilyPolicy != core.IPFamilyPolicySingleStack {
			svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, core.IPv6Protocol)
		}
	}
	if len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIP = "10.96.0.10"
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if svc.Spec.Type == core.ServiceTypeNodePort || svc.Spec.Type == core.ServiceTypeLoadBalancer {
		for i := range svc.Spec.Ports {
			if svc.Spec.Ports[i].NodePort == 0 {
				svc.Spec.Ports[i].NodePort = int32(30000 + i)
			}
		}
	}
}

// prepareJobForCreate is the Job strategy's PrepareForCreate for the 1.34 default gates (all of the
// gates it consults are on): the selector generated unless manualSelector, no status, the template's
// disabled fields dropped.
func prepareJobForCreate(job *batch.Job) {
	job.Status = batch.JobStatus{}
	job.Generation = 1
	if job.Spec.ManualSelector == nil || !*job.Spec.ManualSelector {
		if job.Spec.Template.Labels == nil {
			job.Spec.Template.Labels = map[string]string{}
		}
		for _, k := range []string{batch.LegacyJobNameLabel, batch.JobNameLabel} {
			if _, found := job.Spec.Template.Labels[k]; !found {
				job.Spec.Template.Labels[k] = job.Name
			}
		}
		for _, k := range []string{batch.LegacyControllerUidLabel, batch.ControllerUidLabel} {
			if _, found := job.Spec.Template.Labels[k]; !found {
				job.Spec.Template.Labels[k] = string(job.UID)
			}
		}
		if job.Spec.Selector == nil {
			job.Spec.Selector = &metav1.LabelSelector{}
		}
		if job.Spec.Selector.MatchLabels == nil {
			job.Spec.Selector.MatchLabels = map[string]string{}
		}
		if _, found := job.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !found {
			job.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = string(job.UID)
		}
	}
	podutil.DropDisabledTemplateFields(&job.Spec.Template, nil)
}

// DerivedDecision accepts a family of refusals of derived objects the library does not prevent,
// with the reason and the inventory row that records it (conformance/testdata/derived-decided.json).
type DerivedDecision struct {
	Controller string `json:"controller"`
	Kind       string `json:"kind"`
	// Field and Message are regular expressions matched against the whole of the error's field
	// path and the rest of the error.
	Field     string `json:"field"`
	Message   string `json:"message"`
	Reason    string `json:"reason"`
	Inventory string `json:"inventory"`
}

// DerivedDecisions are the decided families.
type DerivedDecisions []DerivedDecision

// LoadDerivedDecisions reads the decisions file; every entry needs a reason and an inventory row.
func LoadDerivedDecisions(file string) (DerivedDecisions, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Decisions DerivedDecisions `json:"decisions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for i, d := range doc.Decisions {
		if d.Reason == "" || d.Inventory == "" || d.Controller == "" || d.Kind == "" {
			return nil, fmt.Errorf("%s: decision %d needs controller, kind, reason and inventory", file, i)
		}
		for _, re := range []string{d.Field, d.Message} {
			if _, err := regexp.Compile("^(?:" + re + ")$"); err != nil {
				return nil, fmt.Errorf("%s: decision %d: %w", file, i, err)
			}
		}
	}
	return doc.Decisions, nil
}

// Decide returns the decision that covers an error of a derived object, or nil. An error reads
// `<field>: <message>` (field.Error's form).
func (ds DerivedDecisions) Decide(controller, kind, err string) *DerivedDecision {
	fieldPath, message, _ := strings.Cut(err, ": ")
	for i, d := range ds {
		if d.Controller != controller || d.Kind != kind {
			continue
		}
		if regexp.MustCompile("^(?:"+d.Field+")$").MatchString(fieldPath) && regexp.MustCompile("^(?:"+d.Message+")$").MatchString(message) {
			return &ds[i]
		}
	}
	return nil
}

// DerivedFigures count, for one controller, what a run validated.
type DerivedFigures struct {
	Documents map[string]bool
	ByKind    map[string]int
	// Refused counts derived objects with at least one undecided error; Decided, those whose
	// every error is decided.
	Refused, Decided int
}

// Line is the figure line TestDerived prints.
func (f *DerivedFigures) Line(controller string) string {
	kinds := make([]string, 0, len(f.ByKind))
	total := 0
	for k, n := range f.ByKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
		total += n
	}
	sort.Strings(kinds)
	line := fmt.Sprintf("derived %s: %d documents, %d derived objects (%s), %d refused", controller, len(f.Documents), total, strings.Join(kinds, ", "), f.Refused)
	if f.Decided > 0 {
		line += fmt.Sprintf(", %d refused as decided", f.Decided)
	}
	return line
}
