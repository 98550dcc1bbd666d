package kube

import (
	"fmt"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The Notebooks v2 kinds hold pieces of a pod rather than a pod template: the workspace controller
// assembles the pod from the WorkspaceKind (image and pod options, extra env, volumes, mounts,
// security contexts, probes, pod metadata) and the Workspace (pod metadata, PVC and Secret mounts).
// To validate those pieces with Kubernetes' own pod validation, each one is placed into a pod
// template the way the controller uses it. What the controller adds itself (its labels, the home
// volume's name, the service) is not modelled; the pieces below are the ones users write.

// placeholderImage stands for the image of a container whose image the document does not hold.
const placeholderImage = "placeholder.invalid/image:1"

// WorkspaceKindTemplates builds one pod template per image option and one per pod option of a
// WorkspaceKind (each with the first option of the other axis), so that every option is validated
// once together with the kind's shared pieces.
func WorkspaceKindTemplates(d corpus.Document) []corpus.Template {
	pt := corpus.Map(corpus.Map(d.Object["spec"])["podTemplate"])
	if pt == nil {
		return nil
	}
	options := corpus.Map(pt["options"])
	images := corpus.Slice(corpus.Map(options["imageConfig"])["values"])
	pods := corpus.Slice(corpus.Map(options["podConfig"])["values"])
	first := func(values []any) map[string]any {
		if len(values) == 0 {
			return nil
		}
		return corpus.Map(values[0])
	}
	var out []corpus.Template
	for i, image := range images {
		out = append(out, corpus.Template{
			Path:   fmt.Sprintf("spec.podTemplate(imageConfig.values[%d])", i),
			Object: kindPod(pt, corpus.Map(image), first(pods)),
		})
	}
	for i, pod := range pods {
		out = append(out, corpus.Template{
			Path:   fmt.Sprintf("spec.podTemplate(podConfig.values[%d])", i),
			Object: kindPod(pt, first(images), corpus.Map(pod)),
		})
	}
	if len(images) == 0 && len(pods) == 0 {
		out = append(out, corpus.Template{Path: "spec.podTemplate", Object: kindPod(pt, nil, nil)})
	}
	return out
}

func kindPod(pt, image, pod map[string]any) map[string]any {
	imageSpec := corpus.Map(image["spec"])
	podSpec := corpus.Map(pod["spec"])
	container := map[string]any{"name": "main", "image": placeholderImage}
	if img, ok := imageSpec["image"]; ok {
		container["image"] = img
	}
	copyField(container, imageSpec, "imagePullPolicy", "imagePullPolicy")
	copyField(container, pt, "extraEnv", "env")
	copyField(container, pt, "containerSecurityContext", "securityContext")
	copyField(container, podSpec, "resources", "resources")
	probes := corpus.Map(pt["probes"])
	for _, p := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		copyField(container, probes, p, p)
	}
	// Ports: only the numbers. Port ids allow up to 32 characters and "_", which no container port
	// name does, so the controller cannot use them as names; they are not validated here.
	var ports []any
	for _, p := range corpus.Slice(imageSpec["ports"]) {
		ports = append(ports, map[string]any{"containerPort": corpus.Map(p)["port"]})
	}
	if ports != nil {
		container["ports"] = ports
	}

	var mounts []any
	mounts = append(mounts, corpus.Slice(pt["extraVolumeMounts"])...)
	volumes := append([]any{}, corpus.Slice(pt["extraVolumes"])...)
	if home, ok := corpus.Map(pt["volumeMounts"])["home"]; ok {
		mounts = append(mounts, map[string]any{"name": "home-volume", "mountPath": home})
		volumes = append(volumes, map[string]any{"name": "home-volume", "emptyDir": map[string]any{}})
	}
	// A mount of a volume the kind does not define stands for one a Workspace provides.
	volumes = withPlaceholderVolumes(volumes, mounts)
	if mounts != nil {
		container["volumeMounts"] = mounts
	}

	spec := map[string]any{"containers": []any{container}}
	if volumes != nil {
		spec["volumes"] = volumes
	}
	copyField(spec, pt, "securityContext", "securityContext")
	for _, f := range []string{"affinity", "nodeSelector", "tolerations"} {
		copyField(spec, podSpec, f, f)
	}
	template := map[string]any{"spec": spec}
	if md := corpus.Map(pt["podMetadata"]); md != nil {
		template["metadata"] = md
	}
	return template
}

// WorkspaceTemplates builds the pod template of a Workspace's own pieces: its pod metadata, its data
// PVC mounts, its Secret mounts and its home PVC (mounted at a placeholder path: the WorkspaceKind
// names it).
func WorkspaceTemplates(d corpus.Document) []corpus.Template {
	pt := corpus.Map(corpus.Map(d.Object["spec"])["podTemplate"])
	if pt == nil {
		return nil
	}
	vols := corpus.Map(pt["volumes"])
	var volumes, mounts []any
	add := func(name string, source map[string]any, mount map[string]any) {
		volume := map[string]any{"name": name}
		for k, v := range source {
			volume[k] = v
		}
		volumes = append(volumes, volume)
		mount["name"] = name
		mounts = append(mounts, mount)
	}
	if home, ok := vols["home"]; ok {
		add("home", map[string]any{"persistentVolumeClaim": map[string]any{"claimName": home}}, map[string]any{"mountPath": "/home/placeholder"})
	}
	for i, v := range corpus.Slice(vols["data"]) {
		data := corpus.Map(v)
		claim := map[string]any{"claimName": data["pvcName"]}
		mount := map[string]any{"mountPath": data["mountPath"]}
		if ro, ok := data["readOnly"]; ok {
			claim["readOnly"] = ro
			mount["readOnly"] = ro
		}
		add(fmt.Sprintf("data-%d", i), map[string]any{"persistentVolumeClaim": claim}, mount)
	}
	for i, v := range corpus.Slice(vols["secrets"]) {
		s := corpus.Map(v)
		secret := map[string]any{"secretName": s["secretName"]}
		if mode, ok := s["defaultMode"]; ok {
			secret["defaultMode"] = mode
		}
		add(fmt.Sprintf("secret-%d", i), map[string]any{"secret": secret}, map[string]any{"mountPath": s["mountPath"]})
	}
	container := map[string]any{"name": "main", "image": placeholderImage}
	if mounts != nil {
		container["volumeMounts"] = mounts
	}
	spec := map[string]any{"containers": []any{container}}
	if volumes != nil {
		spec["volumes"] = volumes
	}
	template := map[string]any{"spec": spec}
	if md := corpus.Map(pt["podMetadata"]); md != nil {
		template["metadata"] = md
	}
	return []corpus.Template{{Path: "spec.podTemplate", Object: template}}
}

func copyField(to, from map[string]any, src, dst string) {
	if v, ok := from[src]; ok && v != nil {
		to[dst] = v
	}
}

// withPlaceholderVolumes adds an emptyDir for every mounted volume name that has no volume, so that
// a mount of a volume defined elsewhere is not reported as "not found".
func withPlaceholderVolumes(volumes, mounts []any) []any {
	have := map[any]bool{}
	for _, v := range volumes {
		have[corpus.Map(v)["name"]] = true
	}
	for _, m := range mounts {
		name := corpus.Map(m)["name"]
		if !have[name] {
			have[name] = true
			volumes = append(volumes, map[string]any{"name": name, "emptyDir": map[string]any{}})
		}
	}
	return volumes
}
