package kube

import (
	"fmt"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TrainerGroup is the API group and version of Kubeflow Trainer v2's runtimes.
const TrainerGroup = "trainer.kubeflow.org/v1alpha1"

// IsTrainingRuntime says whether the document is a Trainer v2 TrainingRuntime or
// ClusterTrainingRuntime.
func IsTrainingRuntime(d corpus.Document) bool {
	return (d.Kind() == "TrainingRuntime" || d.Kind() == "ClusterTrainingRuntime") && d.APIVersion() == TrainerGroup
}

// RuntimeTemplates returns the pod template of every replicated job of a runtime's JobSet
// template, in order: the Trainer copies them into a JobSet, whose Jobs create the pods, so
// Kubernetes' pod validation applies to each as written. The key is the replicated job's name.
func RuntimeTemplates(d corpus.Document) []corpus.Template {
	jobSet := corpus.Map(corpus.Map(corpus.Map(d.Object["spec"])["template"])["spec"])
	var out []corpus.Template
	for i, rj := range corpus.Slice(jobSet["replicatedJobs"]) {
		replicated := corpus.Map(rj)
		template := corpus.Map(corpus.Map(corpus.Map(replicated["template"])["spec"])["template"])
		if template == nil {
			template = map[string]any{}
		}
		name, _ := replicated["name"].(string)
		out = append(out, corpus.Template{
			Path:   fmt.Sprintf("spec.template.spec.replicatedJobs[%d].template.spec.template", i),
			Object: template,
			Key:    name,
		})
	}
	return out
}

// runtimePodName is the name of the first pod of a replicated job: the JobSet is named after the
// TrainJob and its Jobs `<jobset>-<replicated job>-<index>`, whose pods get the Job controller's
// `<job>-<completion index>-<random suffix>`. A runtime has no TrainJob yet, so a short stand-in
// takes the job's place.
func runtimePodName(t corpus.Template) string {
	return fmt.Sprintf("trainjob-%s-0-0-abcde", t.Key)
}
