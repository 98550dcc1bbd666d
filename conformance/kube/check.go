package kube

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Validator names, as the figures print them.
const (
	MetadataValidator    = "apimachinery ValidateObjectMeta"
	PodTemplateValidator = "core ValidatePodTemplateSpec"
	PodValidator         = "core ValidatePodCreate"
)

// Problem is one error Kubernetes found in a document.
type Problem struct {
	Document  corpus.Document
	Validator string
	Error     *field.Error
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s", p.Document.Label(), p.Validator, p.Error.Error())
}

// Figures count what a run checked.
type Figures struct {
	Documents int
	Templates int
	// Runs counts validator calls by validator name.
	Runs map[string]int
	// TemplatesByKind counts pod templates by document kind.
	TemplatesByKind map[string]int
}

// NewFigures returns empty figures.
func NewFigures() *Figures {
	return &Figures{Runs: map[string]int{}, TemplatesByKind: map[string]int{}}
}

// Lines prints the figures, one fact a line, in a stable order.
func (f *Figures) Lines() []string {
	lines := []string{fmt.Sprintf("documents checked: %d", f.Documents), fmt.Sprintf("pod templates checked: %d", f.Templates)}
	for _, k := range sortedKeys(f.TemplatesByKind) {
		lines = append(lines, fmt.Sprintf("  pod templates of %s: %d", k, f.TemplatesByKind[k]))
	}
	for _, k := range sortedKeys(f.Runs) {
		lines = append(lines, fmt.Sprintf("validator %s: %d runs", k, f.Runs[k]))
	}
	return lines
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Templates returns the pod templates Kubernetes' pod validation applies to in a document: the
// replica templates of a training job, the replicated jobs' templates of a Trainer v2 runtime, or
// the pod pieces of a Workspace or WorkspaceKind.
func Templates(d corpus.Document) []corpus.Template {
	switch {
	case corpus.IsTrainingJob(d):
		return corpus.JobTemplates(d)
	case IsTrainingRuntime(d):
		return RuntimeTemplates(d)
	case d.Kind() == "WorkspaceKind" && d.APIVersion() == "kubeflow.org/v1beta1":
		return WorkspaceKindTemplates(d)
	case d.Kind() == "Workspace" && d.APIVersion() == "kubeflow.org/v1beta1":
		return WorkspaceTemplates(d)
	}
	return nil
}

// Check runs every validator that applies to a document and returns the problems found.
func Check(d corpus.Document, figures *Figures) []Problem {
	var problems []Problem
	add := func(validator string, errs field.ErrorList) {
		for _, e := range errs {
			problems = append(problems, Problem{Document: d, Validator: validator, Error: e})
		}
	}
	figures.Documents++
	figures.Runs[MetadataValidator]++
	add(MetadataValidator, ValidateMetadata(d))
	for _, t := range Templates(d) {
		figures.Templates++
		figures.TemplatesByKind[d.Kind()]++
		figures.Runs[PodTemplateValidator]++
		templateErrs := ValidatePodTemplate(t.Object, field.NewPath(t.Path))
		add(PodTemplateValidator, templateErrs)
		figures.Runs[PodValidator]++
		add(PodValidator, podOnly(t.Path, templateErrs, ValidatePod(t.Object, podName(d, t), podNamespace(d))))
	}
	return problems
}

// podName is the name a controller gives the first pod of a template: `<job>-<type>-0` for the
// training operator (GenGeneralName in pkg/core), a stand-in for the notebooks controller.
func podName(d corpus.Document, t corpus.Template) string {
	if corpus.IsTrainingJob(d) {
		return fmt.Sprintf("%s-%s-0", d.Name(), strings.ToLower(t.Key))
	}
	if IsTrainingRuntime(d) {
		return runtimePodName(t)
	}
	return "workspace-0"
}

func podNamespace(d corpus.Document) string {
	if ns := d.Namespace(); ns != "" {
		return ns
	}
	return "default"
}

// podOnly keeps the pod errors that the template validation did not already report, and puts
// them under the template's path: `<template path>(pod).spec...`.
func podOnly(templatePath string, templateErrs, podErrs field.ErrorList) field.ErrorList {
	seen := map[string]bool{}
	for _, e := range templateErrs {
		inner := strings.TrimPrefix(e.Field, templatePath+".")
		if strings.HasPrefix(inner, "labels") || strings.HasPrefix(inner, "annotations") {
			inner = "metadata." + inner
		}
		seen[errorKey(inner, e)] = true
	}
	var out field.ErrorList
	for _, e := range podErrs {
		if seen[errorKey(e.Field, e)] {
			continue
		}
		moved := *e
		moved.Field = templatePath + "(pod)." + e.Field
		out = append(out, &moved)
	}
	return out
}

func errorKey(path string, e *field.Error) string {
	return fmt.Sprintf("%s|%s|%v|%s", path, e.Type, e.BadValue, e.Detail)
}
