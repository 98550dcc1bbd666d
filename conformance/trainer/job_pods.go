package trainer

import (
	"fmt"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The Pods of a Job. The Job controller lives in k8s.io/kubernetes (pkg/controller/job), which is
// not in this module's build list (Trainer v2.3.0 pins k8s.io/* v0.36, k8s.io/kubernetes v1.34
// needs v0.34) and whose pod construction is unexported. So this file models, from the 1.34
// sources, only what the API server and the Job controller add to the Job's pod template; the rest
// of each Pod is the template the JobSet controller built, unchanged:
//
//   - the API server, storing the Job (pkg/registry/batch/job, generateSelector, without a manual
//     selector): the labels batch.kubernetes.io/job-name and job-name (the Job's name),
//     batch.kubernetes.io/controller-uid and controller-uid (its UID) on the template; the v1
//     defaults of completions, parallelism and completionMode (pkg/apis/batch/v1, SetDefaults_Job);
//   - the Job controller (manageJob, indexed_job_utils.go): the finalizer
//     batch.kubernetes.io/job-tracking; for an Indexed Job, the env JOB_COMPLETION_INDEX from the
//     index label in every container and init container that lacks it, the index as annotation and
//     label batch.kubernetes.io/job-completion-index (PodIndexLabel is GA and locked on in 1.34),
//     hostname <job>-<index>, generateName <job>-<index>- (cut to fit), and the index failure
//     count annotation when backoffLimitPerIndex is set; the controller reference to the Job
//     (GetPodFromTemplate), and generateName <job>- for a NonIndexed Job;
//
// The Pod is written as the controller sends it, with generateName and no name: the API server's
// naming is the validator's (kube/, ValidateDerived).
//
// Pods of one Job differ only by their index: the first and the last index are built (the last
// has the longest names), and one pod for a NonIndexed Job, whose pods are all alike.

const (
	// Labels the API server's Job strategy adds besides k8s.io/api's batch/v1 constants.
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
	completionIndexEnvName   = "JOB_COMPLETION_INDEX"
	// maxGeneratedNameLength is the length of generateName the API server keeps before its random
	// suffix (k8s.io/apiserver pkg/storage/names: 63 - 5), which the Job controller's indexed
	// generateName is cut to.
	maxGeneratedNameLength = 58
)

// StoredJob is the Job as the API server stores it: the v1 defaults the Job controller reads, and
// the selector labels on its template.
func StoredJob(sent *batchv1.Job) *batchv1.Job {
	job := sent.DeepCopy()
	job.UID = stableUID("Job", job.Namespace, job.Name)
	if job.Spec.Completions == nil && job.Spec.Parallelism == nil {
		job.Spec.Completions = ptr.To[int32](1)
	}
	if job.Spec.Parallelism == nil {
		job.Spec.Parallelism = ptr.To[int32](1)
	}
	if job.Spec.CompletionMode == nil {
		job.Spec.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	if !ptr.Deref(job.Spec.ManualSelector, false) {
		if job.Spec.Template.Labels == nil {
			job.Spec.Template.Labels = map[string]string{}
		}
		for _, l := range []string{legacyJobNameLabel, batchv1.JobNameLabel} {
			if _, found := job.Spec.Template.Labels[l]; !found {
				job.Spec.Template.Labels[l] = job.Name
			}
		}
		for _, l := range []string{legacyControllerUIDLabel, batchv1.ControllerUidLabel} {
			if _, found := job.Spec.Template.Labels[l]; !found {
				job.Spec.Template.Labels[l] = string(job.UID)
			}
		}
	}
	return job
}

// JobPods are the Pods the Job controller creates for a stored Job, as the API server names them.
func JobPods(job *batchv1.Job) []*corev1.Pod {
	indexed := ptr.Deref(job.Spec.CompletionMode, batchv1.NonIndexedCompletion) == batchv1.IndexedCompletion
	template := job.Spec.Template.DeepCopy()
	if indexed {
		for i := range template.Spec.InitContainers {
			addCompletionIndexEnv(&template.Spec.InitContainers[i])
		}
		for i := range template.Spec.Containers {
			addCompletionIndexEnv(&template.Spec.Containers[i])
		}
	}
	if !containsString(template.Finalizers, batchv1.JobTrackingFinalizer) {
		template.Finalizers = append(template.Finalizers, batchv1.JobTrackingFinalizer)
	}
	if !indexed {
		return []*corev1.Pod{podFromTemplate(job, template, job.Name+"-")}
	}
	completions := int(ptr.Deref(job.Spec.Completions, 1))
	indexes := []int{0}
	if completions > 1 {
		indexes = append(indexes, completions-1)
	}
	var pods []*corev1.Pod
	for _, index := range indexes {
		t := template.DeepCopy()
		value := strconv.Itoa(index)
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[batchv1.JobCompletionIndexAnnotation] = value
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Labels[batchv1.JobCompletionIndexAnnotation] = value
		t.Spec.Hostname = fmt.Sprintf("%s-%d", job.Name, index)
		if job.Spec.BackoffLimitPerIndex != nil {
			t.Annotations[batchv1.JobIndexFailureCountAnnotation] = "0"
		}
		pods = append(pods, podFromTemplate(job, t, indexedGenerateName(job.Name, index)))
	}
	return pods
}

// addCompletionIndexEnv gives a container the env variable of its pod's completion index, unless
// it has one of that name.
func addCompletionIndexEnv(c *corev1.Container) {
	for _, e := range c.Env {
		if e.Name == completionIndexEnvName {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: completionIndexEnvName, ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: fmt.Sprintf("metadata.labels['%s']", batchv1.JobCompletionIndexAnnotation)},
	}})
}

// indexedGenerateName is <job>-<index>-, the job's name cut so that it fits the generated part.
func indexedGenerateName(jobName string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	prefix := jobName + suffix
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength-len(suffix)] + suffix
	}
	return prefix
}

// podFromTemplate is the Pod the Job controller sends (labels, annotations, finalizers and spec of
// the template, the controller reference, generateName).
func podFromTemplate(job *batchv1.Job, template *corev1.PodTemplateSpec, generateName string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: generateName,
			Namespace:    job.Namespace,
			Labels:       template.Labels,
			Annotations:  template.Annotations,
			Finalizers:   template.Finalizers,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(job,
				batchv1.SchemeGroupVersion.WithKind("Job"))},
		},
		Spec: *template.Spec.DeepCopy(),
	}
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
