package kube

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The pod Kubernetes' StatefulSet controller creates for ordinal 0 of a StatefulSet
// (k8s.io/kubernetes v1.34, pkg/controller/statefulset stateful_set_utils.go: newStatefulSetPod,
// initIdentity, updateIdentity, setPodRevision; pkg/controller controller_utils.go:
// GetPodFromTemplate; pkg/controller/history: NewControllerRevision). Those functions are
// unexported or pull the client libraries into this module's build list, so this file follows
// them step by step instead of calling them.

// statefulSetPodUID stands for the uid the API server gives the StatefulSet, which its pods' owner
// reference carries.
const statefulSetPodUID = "00000000-0000-4000-8000-00000000005e"

// StatefulSetFirstPod builds the pod the StatefulSet controller creates for ordinal 0 of the
// StatefulSet (a v1 StatefulSet as data, with its name set): the template's labels, annotations
// and spec; the name `<set>-0` (and the generateName `<set>-` that GetPodFromTemplate sets first);
// the set's namespace; the controller reference to the set; the labels
// `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` (PodIndexLabel is locked on
// in 1.34) and `controller-revision-hash`; the hostname (the pod's name) and the subdomain (the
// set's serviceName, when it has one). A set with no replicas has no pod: nil.
func StatefulSetFirstPod(set map[string]any) map[string]any {
	spec := corpus.Map(set["spec"])
	if replicas, ok := spec["replicas"]; ok && replicas != nil && fmt.Sprint(replicas) == "0" {
		return nil
	}
	meta := corpus.Map(set["metadata"])
	setName, _ := meta["name"].(string)
	template := deepCopy(corpus.Map(spec["template"]))
	templateMeta := corpus.Map(template["metadata"])

	podName := setName + "-0"
	labels := map[string]any{}
	for k, v := range corpus.Map(templateMeta["labels"]) {
		labels[k] = v
	}
	labels[appsv1.StatefulSetPodNameLabel] = podName
	labels[appsv1.PodIndexLabel] = "0"
	labels[appsv1.StatefulSetRevisionLabel] = statefulSetRevisionName(set)

	podMeta := map[string]any{
		"name":         podName,
		"generateName": setName + "-",
		"namespace":    meta["namespace"],
		"labels":       labels,
		"ownerReferences": []any{map[string]any{
			"apiVersion": "apps/v1", "kind": "StatefulSet", "name": setName, "uid": statefulSetPodUID,
			"controller": true, "blockOwnerDeletion": true,
		}},
	}
	if annotations := corpus.Map(templateMeta["annotations"]); len(annotations) > 0 {
		podMeta["annotations"] = annotations
	}
	if finalizers := corpus.Slice(templateMeta["finalizers"]); len(finalizers) > 0 {
		podMeta["finalizers"] = finalizers
	}
	podSpec := corpus.Map(template["spec"])
	if podSpec == nil {
		podSpec = map[string]any{}
	}
	podSpec["hostname"] = podName
	if service, _ := spec["serviceName"].(string); service != "" {
		podSpec["subdomain"] = service
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": podMeta, "spec": podSpec}
}

// statefulSetRevisionName is the name of the set's first ControllerRevision, which the pod's
// `controller-revision-hash` label carries: `<set>-<hash>`, the set's name cut to 223 characters,
// the hash the 32-bit FNV-1 of the revision's data (the strategic merge patch that replaces the
// set's pod template) followed by the collision count "0", printed in decimal and encoded with
// apimachinery's SafeEncodeString (at most 10 characters). The patch here is the template as
// this module holds it, not as the API server stored it (defaults applied), so the hash may differ
// from a cluster's; its length, which is what validation sees, does not.
func statefulSetRevisionName(set map[string]any) string {
	name, _ := corpus.Map(set["metadata"])["name"].(string)
	template := deepCopy(corpus.Map(corpus.Map(set["spec"])["template"]))
	if template == nil {
		template = map[string]any{}
	}
	template["$patch"] = "replace"
	patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
	h := fnv.New32()
	h.Write(patch)
	h.Write([]byte("0"))
	hash := rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
	if len(name) > 223 {
		name = name[:223]
	}
	return name + "-" + hash
}

// deepCopy copies JSON-shaped data, so a derived object never shares maps with its source.
func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		panic(err)
	}
	return out
}
