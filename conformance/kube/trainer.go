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
			Object: withClaimVolumes(template, jobSet),
			Key:    name,
		})
	}
	return out
}

// withClaimVolumes adds the volumes JobSet adds for its volume claim policies: a claim template
// becomes a persistentVolumeClaim volume of the same name in every pod that mounts it
// (sigs.k8s.io/jobset v0.12.0 pkg/controllers/volume_claim_policy.go, addVolumes). The claim is
// named `<template>-<jobset>`; a stand-in takes the JobSet's name. The template is not modified.
func withClaimVolumes(template, jobSet map[string]any) map[string]any {
	spec := corpus.Map(template["spec"])
	mounted := map[string]bool{}
	for _, list := range []string{"initContainers", "containers"} {
		for _, c := range corpus.Slice(spec[list]) {
			for _, m := range corpus.Slice(corpus.Map(c)["volumeMounts"]) {
				if name, ok := corpus.Map(m)["name"].(string); ok {
					mounted[name] = true
				}
			}
		}
	}
	var added []any
	for _, policy := range corpus.Slice(jobSet["volumeClaimPolicies"]) {
		for _, claim := range corpus.Slice(corpus.Map(policy)["templates"]) {
			name, _ := corpus.Map(corpus.Map(claim)["metadata"])["name"].(string)
			if name == "" || !mounted[name] {
				continue
			}
			added = append(added, map[string]any{
				"name":                  name,
				"persistentVolumeClaim": map[string]any{"claimName": name + "-trainjob"},
			})
		}
	}
	if len(added) == 0 {
		return template
	}
	newSpec := map[string]any{}
	for k, v := range spec {
		newSpec[k] = v
	}
	newSpec["volumes"] = append(append([]any{}, corpus.Slice(spec["volumes"])...), added...)
	newTemplate := map[string]any{}
	for k, v := range template {
		newTemplate[k] = v
	}
	newTemplate["spec"] = newSpec
	return newTemplate
}

// runtimePodName is the name of the first pod of a replicated job: the JobSet is named after the
// TrainJob and its Jobs `<jobset>-<replicated job>-<index>`, whose pods get the Job controller's
// `<job>-<completion index>-<random suffix>`. A runtime has no TrainJob yet, so a short stand-in
// takes the job's place.
func runtimePodName(t corpus.Template) string {
	return fmt.Sprintf("trainjob-%s-0-0-abcde", t.Key)
}
