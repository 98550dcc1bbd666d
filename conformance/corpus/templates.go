package corpus

import (
	"fmt"
	"sort"
	"strings"
)

// Template is one pod template inside a document, with the path it has there.
type Template struct {
	// Path is the template's field path in the document, such as
	// `spec.pytorchReplicaSpecs[Worker].template`.
	Path string
	// Object is the template (a v1 PodTemplateSpec as data).
	Object map[string]any
	// Key is the replica type of a training job's template, else "".
	Key string
}

// JobGroup is the API group of the training operator's v1 jobs.
const JobGroup = "kubeflow.org/v1"

// replicaSpecs names, per training-operator v1 kind, the field holding its replica specs
// (pkg/apis/kubeflow.org/v1, the `*ReplicaSpecs` fields of each job spec).
var replicaSpecs = map[string]string{
	"PyTorchJob": "pytorchReplicaSpecs",
	"TFJob":      "tfReplicaSpecs",
	"MPIJob":     "mpiReplicaSpecs",
	"XGBoostJob": "xgbReplicaSpecs",
	"PaddleJob":  "paddleReplicaSpecs",
	"JAXJob":     "jaxReplicaSpecs",
	"MXJob":      "mxReplicaSpecs",
}

// IsTrainingJob says whether the document is a training-operator v1 job.
func IsTrainingJob(d Document) bool {
	_, ok := replicaSpecs[d.Kind()]
	return ok && d.APIVersion() == JobGroup
}

// ReplicaSpecsField is the name of the kind's replica specs field, or "".
func ReplicaSpecsField(kind string) string { return replicaSpecs[kind] }

// JobTemplates returns the pod template of every replica type of a training job, in replica-type
// order; nil for any other document.
func JobTemplates(d Document) []Template {
	if !IsTrainingJob(d) {
		return nil
	}
	field := replicaSpecs[d.Kind()]
	specs := Map(Map(d.Object["spec"])[field])
	types := make([]string, 0, len(specs))
	for t := range specs {
		types = append(types, t)
	}
	sort.Strings(types)
	var out []Template
	for _, t := range types {
		template := Map(Map(specs[t])["template"])
		if template == nil {
			template = map[string]any{}
		}
		out = append(out, Template{Path: fmt.Sprintf("spec.%s[%s].template", field, t), Object: template, Key: t})
	}
	return out
}

// TemplatePath turns a template path and a Kubernetes field path inside it into one path.
func TemplatePath(template, inner string) string {
	if inner == "" {
		return template
	}
	if strings.HasPrefix(inner, "[") {
		return template + inner
	}
	return template + "." + inner
}
