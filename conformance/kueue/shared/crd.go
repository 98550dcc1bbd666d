package shared

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// Group is Kueue's API group.
const Group = "kueue.x-k8s.io"

// servedVersion is what the API server builds for one served version of a CRD
// (apiextensions-apiserver, crdHandler.getOrCreateServingInfoFor).
type servedVersion struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

// CRD is one Kueue CustomResourceDefinition as installed: its names, scope, served versions and
// how the API server converts between them.
type CRD struct {
	Kind, Plural string
	Namespaced   bool
	// ConversionWebhook is true when the release's kustomization patches the CRD to convert
	// through Kueue's conversion webhook; otherwise the strategy is None (only apiVersion changes).
	ConversionWebhook bool
	versions          map[string]servedVersion
}

// CRDs are the release's Kueue CRDs by kind.
type CRDs map[string]*CRD

// conversionPatch is an uncommented line of the CRD kustomization that enables the conversion
// webhook of one CRD (config/components/crd/kustomization.yaml: `- path: patches/webhook_in_<plural>.yaml`).
var conversionPatch = regexp.MustCompile(`^\s*-\s*path:\s*patches/webhook_in_([a-z]+)\.yaml\s*$`)

// LoadCRDs reads the CRDs of a Kueue release from the module's own files: the bases under
// config/components/crd/bases and, from the kustomization beside them, which CRDs convert through
// the webhook.
func LoadCRDs(moduleDir string) (CRDs, error) {
	dir := filepath.Join(moduleDir, "config", "components", "crd")
	webhookConverted := map[string]bool{}
	kustomization, err := os.Open(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		return nil, err
	}
	defer kustomization.Close()
	lines := bufio.NewScanner(kustomization)
	for lines.Scan() {
		if m := conversionPatch.FindStringSubmatch(lines.Text()); m != nil {
			webhookConverted[m[1]] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "bases", "*.yaml"))
	if err != nil {
		return nil, err
	}
	out := CRDs{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(raw, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if crd.Kind != "CustomResourceDefinition" || crd.Spec.Group != Group {
			continue
		}
		c := &CRD{
			Kind:              crd.Spec.Names.Kind,
			Plural:            crd.Spec.Names.Plural,
			Namespaced:        crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			ConversionWebhook: webhookConverted[crd.Spec.Names.Plural],
			versions:          map[string]servedVersion{},
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served || v.Schema == nil {
				continue
			}
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			s, err := structuralschema.NewStructural(&internal)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			validator, _, err := apiservervalidation.NewSchemaValidator(&internal)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			c.versions[v.Name] = servedVersion{structural: s, validator: validator, cel: cel.NewValidator(s, true, celconfig.PerCallLimit)}
		}
		out[c.Kind] = c
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s CRDs under %s", Group, dir)
	}
	return out, nil
}

// Served reports whether the CRD serves a version.
func (c *CRD) Served(version string) bool {
	_, ok := c.versions[version]
	return ok
}

// Admit runs what the API server runs on the create of a custom resource in one version, before
// admission: the namespace as the request sets it, unknown fields pruned (returned: a field the
// library writes that the API server drops is a refusal here), nulls without defaults dropped, the
// schema's defaults (customResourceStrategy's coercion and defaulting); then the object metadata
// rules of customResourceStrategy.Validate, the OpenAPI schema, the list types and the CEL rules
// (x-kubernetes-validations) within the runtime cost budget. The object it returns is the decoded,
// defaulted one, as the admission webhooks are given it.
func (c *CRD) Admit(version string, object map[string]any) (map[string]any, []string, field.ErrorList, error) {
	s, ok := c.versions[version]
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s/%s %s is not served", Group, version, c.Kind)
	}
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, nil, nil, err
	}
	// Decoded as the API server decodes a custom resource: whole numbers as int64, which the CEL
	// rules' integer fields need (encoding/json would give float64).
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return nil, nil, nil, err
	}
	// kubectl sends a namespaced object without a namespace to its context's namespace; the
	// API server clears the namespace of a cluster-scoped one (rest.BeforeCreate).
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	if c.Namespaced {
		if ns, _ := meta["namespace"].(string); ns == "" {
			meta["namespace"] = "default"
		}
	} else {
		delete(meta, "namespace")
	}
	pruned := structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	structuraldefaulting.Default(obj, s.structural)
	errs := metavalidation.ValidateObjectMetaAccessor(&unstructured.Unstructured{Object: obj}, c.Namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, s.validator)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
	celErrs, _ := s.cel.Validate(context.Background(), nil, s.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return obj, pruned, append(errs, celErrs...), nil
}

// versionOf splits an apiVersion of the Kueue group; ok is false for another group.
func versionOf(apiVersion string) (string, bool) {
	group, version, found := strings.Cut(apiVersion, "/")
	return version, found && group == Group
}
