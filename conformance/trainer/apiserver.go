package trainer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"sigs.k8s.io/yaml"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
)

// Schemas are the structural schemas of the Trainer CRDs by kind, for the steps the API server
// takes on a custom resource before any admission webhook sees it.
type Schemas map[string]*structuralschema.Structural

// LoadSchemas reads the CustomResourceDefinitions of the trainer.kubeflow.org group in dir (the
// release's manifests/base/crds) and builds the structural schema of their served version, as the
// API server does when a CRD is installed (apiextensions-apiserver, crdHandler.getOrCreateServingInfoFor).
func LoadSchemas(dir string) (Schemas, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	schemas := Schemas{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(raw, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if crd.Kind != "CustomResourceDefinition" || crd.Spec.Group != trainer.GroupVersion.Group {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Name != trainer.GroupVersion.Version || v.Schema == nil {
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
			schemas[crd.Spec.Names.Kind] = s
		}
	}
	for _, kind := range []string{trainer.TrainJobKind, trainer.TrainingRuntimeKind, trainer.ClusterTrainingRuntimeKind} {
		if schemas[kind] == nil {
			return nil, fmt.Errorf("no %s/%s CRD for %s under %s", trainer.GroupVersion.Group, trainer.GroupVersion.Version, kind, dir)
		}
	}
	return schemas, nil
}

// Admit returns the object as the API server hands it to admission: unknown fields pruned and
// nulls of non-nullable fields without a default dropped (unstructuredSchemaCoercer.apply), then
// the schema's defaults applied (unstructuredDefaulter.Default). It also returns the paths it
// pruned: a field the library writes that the API server drops is a bug the webhooks cannot see.
func (s Schemas) Admit(kind string, object map[string]any) (map[string]any, []string, error) {
	schema := s[kind]
	if schema == nil {
		return nil, nil, fmt.Errorf("no schema for kind %s", kind)
	}
	// A deep copy through JSON, so the caller's document stays as it was read.
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, nil, err
	}
	var copied map[string]any
	if err := json.Unmarshal(raw, &copied); err != nil {
		return nil, nil, err
	}
	pruned := structuralpruning.PruneWithOptions(copied, schema, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(copied, schema)
	structuraldefaulting.Default(copied, schema)
	return copied, pruned, nil
}
