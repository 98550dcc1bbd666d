package kube

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install" // registers core/v1 defaults and conversions in legacyscheme
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/capabilities"
	sigsjson "sigs.k8s.io/json"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The API server's --allow-privileged flag: kubeadm and the managed Kubernetes services start the
// API server with it on (its compiled-in default is off), so privileged containers are judged as
// a typical cluster judges them; Pod Security admission, not object validation, restricts them.
func init() {
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: true})
}

// ValidatePodTemplate validates one pod template (a v1 PodTemplateSpec as data) the way the API
// server validates a PodTemplate on create (pkg/registry/core/podtemplate/strategy.go):
//
//  1. decode the v1 JSON case-sensitively, as the API server's JSON serializer does;
//  2. apply the v1 defaults (SetObjectDefaults_PodTemplate, registered by core/install);
//  3. convert to the internal core.PodTemplate;
//  4. drop the fields of disabled features (podutil.DropDisabledTemplateFields, PrepareForCreate);
//  5. ValidatePodTemplateSpec with podutil.GetValidationOptionsFromPodTemplate, which reads the
//     1.34 default feature gates (relaxed env names, and so on).
//
// The errors' paths start at `at`.
func ValidatePodTemplate(template map[string]any, at *field.Path) field.ErrorList {
	raw, err := corpus.JSON(template)
	if err != nil {
		return field.ErrorList{field.InternalError(at, err)}
	}
	versioned := &corev1.PodTemplate{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &versioned.Template); err != nil {
		return field.ErrorList{field.Invalid(at, "(template)", fmt.Sprintf("does not decode as a v1 PodTemplateSpec: %v", err))}
	}
	legacyscheme.Scheme.Default(versioned)
	internal := &core.PodTemplate{}
	if err := legacyscheme.Scheme.Convert(versioned, internal, nil); err != nil {
		return field.ErrorList{field.Invalid(at, "(template)", fmt.Sprintf("does not convert to the internal PodTemplateSpec: %v", err))}
	}
	podutil.DropDisabledTemplateFields(&internal.Template, nil)
	opts := podutil.GetValidationOptionsFromPodTemplate(&internal.Template, nil)
	return corevalidation.ValidatePodTemplateSpec(&internal.Template, at, opts)
}

// ValidatePod validates the pod a controller creates from a template, the way the API server
// validates a Pod on create (pkg/registry/core/pod/strategy.go: defaults, conversion,
// DropDisabledPodFields, ValidatePodCreate with ResourceIsPod). Some rules apply to pods only,
// not to templates: an image with leading or trailing whitespace passes ValidatePodTemplateSpec
// but every pod made from it is refused (validateContainerOnlyForPod). The default mutating
// admission that decides a validation runs first (the service account's name). The pod gets the template's
// metadata with the name and namespace given. Errors are returned with Kubernetes' pod paths
// (`metadata...`, `spec...`).
func ValidatePod(template map[string]any, name, namespace string) field.ErrorList {
	at := field.NewPath("pod")
	raw, err := corpus.JSON(template)
	if err != nil {
		return field.ErrorList{field.InternalError(at, err)}
	}
	var spec corev1.PodTemplateSpec
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &spec); err != nil {
		return field.ErrorList{field.Invalid(at, "(template)", fmt.Sprintf("does not decode as a v1 PodTemplateSpec: %v", err))}
	}
	versioned := &corev1.Pod{ObjectMeta: spec.ObjectMeta, Spec: spec.Spec}
	versioned.Name, versioned.Namespace = name, namespace
	return validateV1Pod(versioned, at)
}

// validateV1Pod runs the API server's create steps on a decoded v1 Pod: v1 defaults, the
// ServiceAccount admission, conversion, dropped disabled fields, ValidatePodCreate.
func validateV1Pod(versioned *corev1.Pod, at *field.Path) field.ErrorList {
	legacyscheme.Scheme.Default(versioned)
	// The ServiceAccount admission plugin (on by default) names the "default" service account on a
	// pod that names none before validation runs (plugin/pkg/admission/serviceaccount admission.go
	// Admit): ValidatePodCreate's "serviceAccountToken must not be specified when
	// serviceAccountName is not set" never meets a pod on a cluster that has the plugin.
	if versioned.Spec.ServiceAccountName == "" {
		versioned.Spec.ServiceAccountName = "default"
	}
	internal := &core.Pod{}
	if err := legacyscheme.Scheme.Convert(versioned, internal, nil); err != nil {
		return field.ErrorList{field.Invalid(at, "(pod)", fmt.Sprintf("does not convert to the internal Pod: %v", err))}
	}
	podutil.DropDisabledPodFields(internal, nil)
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&internal.Spec, nil, &internal.ObjectMeta, nil)
	opts.ResourceIsPod = true
	return corevalidation.ValidatePodCreate(internal, opts)
}
