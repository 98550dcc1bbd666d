// Package kube runs Kubernetes' own validation (1.34; 1.35 as ../kube-v1.35, which links these
// files) on the manifests the library emits: object metadata with k8s.io/apimachinery's
// ValidateObjectMeta, and every pod template through the same steps the API server takes
// (defaulting, conversion to the internal types, dropping disabled fields, ValidatePodTemplateSpec
// with the options of the default feature gates).
package kube

import (
	"encoding/json"
	"fmt"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// nameRules gives the name rule of the built-in kinds the library may write next to its custom
// resources (the `ValidateNameFunc` each registry passes to ValidateObjectMeta, in
// pkg/apis/core/validation). Custom resources use NameIsDNSSubdomain: the apiextensions-apiserver
// validates every custom resource's metadata with it (pkg/registry/customresource/validator.go).
var nameRules = map[string]apimachineryvalidation.ValidateNameFunc{
	"Service":               corevalidation.ValidateServiceName,
	"Namespace":             corevalidation.ValidateNamespaceName,
	"ConfigMap":             corevalidation.ValidateConfigMapName,
	"Secret":                corevalidation.ValidateSecretName,
	"ServiceAccount":        corevalidation.ValidateServiceAccountName,
	"PersistentVolumeClaim": corevalidation.ValidatePersistentVolumeName,
	"Pod":                   corevalidation.ValidatePodName,
}

// clusterScoped lists the kinds without a namespace that the library writes (WorkspaceKind's CRD
// has `scope: Cluster`).
var clusterScoped = map[string]bool{
	"Namespace":             true,
	"WorkspaceKind":         true,
	"PriorityClass":         true,
	"ClusterRole":           true,
	"ClusterRoleBinding":    true,
	"ClusterQueue":          true,
	"ResourceFlavor":        true,
	"WorkloadPriorityClass": true,
}

// ValidateMetadata validates metadata.name (with the kind's rule), metadata.namespace, labels,
// annotations (keys and the 256 KiB total), owner references and finalizers, as the API server does
// on create. A namespaced object without a namespace is checked in `default`, where kubectl and
// GitOps tools put it.
func ValidateMetadata(d corpus.Document) field.ErrorList {
	path := field.NewPath("metadata")
	var meta metav1.ObjectMeta
	raw, err := json.Marshal(d.Object["metadata"])
	if err == nil {
		err = json.Unmarshal(raw, &meta)
	}
	if err != nil {
		return field.ErrorList{field.Invalid(path, string(raw), fmt.Sprintf("does not decode as ObjectMeta: %v", err))}
	}
	namespaced := !clusterScoped[d.Kind()]
	if namespaced && meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault
	}
	name, ok := nameRules[d.Kind()]
	if !ok || d.APIVersion() != "v1" {
		name = apimachineryvalidation.NameIsDNSSubdomain
	}
	return apimachineryvalidation.ValidateObjectMeta(&meta, namespaced, name, path)
}
