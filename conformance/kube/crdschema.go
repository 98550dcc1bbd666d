package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// CRDSchemaValidator names the API server's custom resource validation in reports.
const CRDSchemaValidator = "apiextensions schema and CEL"

// crdSchema is what the API server builds for one served version of a CRD
// (apiextensions-apiserver, crdHandler.getOrCreateServingInfoFor).
type crdSchema struct {
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

// CRDSchemas are the pinned CRDs' served versions, keyed by `apiVersion kind`.
type CRDSchemas map[string]crdSchema

// LoadCRDSchemas reads every CustomResourceDefinition in the folders given.
func LoadCRDSchemas(dirs ...string) (CRDSchemas, error) {
	out := CRDSchemas{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.Unmarshal(raw, &crd); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if crd.Kind != "CustomResourceDefinition" {
				continue
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
				key := crd.Spec.Group + "/" + v.Name + " " + crd.Spec.Names.Kind
				out[key] = crdSchema{structural: s, validator: validator, cel: cel.NewValidator(s, true, celconfig.PerCallLimit)}
			}
		}
	}
	return out, nil
}

// Validate runs what the API server runs on the create of a custom resource, after decoding: unknown
// fields pruned, nulls without defaults dropped, the schema's defaults (customResourceStrategy's
// coercion and defaulting), then the OpenAPI schema validation, the list-type rules
// (listType set/map uniqueness) and the CEL rules (x-kubernetes-validations) within the runtime
// cost budget. It reports whether the kind is known.
func (c CRDSchemas) Validate(d corpus.Document) (field.ErrorList, bool) {
	s, ok := c[d.APIVersion()+" "+d.Kind()]
	if !ok {
		return nil, false
	}
	raw, err := json.Marshal(d.Object)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}, true
	}
	// Decoded as the API server decodes a custom resource: whole numbers as int64, which the CEL
	// rules' integer fields need (encoding/json would give float64).
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}, true
	}
	structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	structuraldefaulting.Default(obj, s.structural)
	errs := apiservervalidation.ValidateCustomResource(nil, obj, s.validator)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
	celErrs, _ := s.cel.Validate(context.Background(), nil, s.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...), true
}
