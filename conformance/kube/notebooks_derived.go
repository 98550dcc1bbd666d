package kube

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"text/template"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The objects the Kubeflow Notebooks v2 workspace controller builds from a Workspace and its
// WorkspaceKind: a StatefulSet (one replica, none when paused), a Service for the image's ports,
// and, through Kubernetes' StatefulSet controller, the StatefulSet's first pod.
//
// The controller's Go module (github.com/kubeflow/notebooks/workspaces/controller) is not served
// by the module proxy, so its code cannot run here. This is the library's model of it, written
// from its source at the commit upstream/README.md pins (workspaces/controller/internal/controller
// workspace_controller.go: Reconcile, getImageConfig, getPodConfig, generateNamePrefix,
// generateServiceAccountName, generateStatefulSet, generateService; internal/helper template.go:
// RenderGoTemplate). inventory/notebooks.yaml has a row for it. The ServiceAccount, RoleBindings
// and Istio VirtualService the controller also owns are not modelled: their fields come from the
// Workspace's name and namespace only, which the Workspace's own name rule covers.

// NotebooksController names the derived records of this model.
const NotebooksController = "notebooks"

// NotebooksSkip is a Workspace for which the controller builds nothing, and why.
type NotebooksSkip struct {
	From   string
	Reason string
}

// workspaceUID stands for the uid the API server gives the Workspace, which the controller's
// owner references carry.
const workspaceUID = "00000000-0000-4000-8000-00000000005f"

// The labels the controller puts on what it builds (workspaceNameLabel, workspaceSelectorLabel).
const (
	workspaceNameLabel     = "notebooks.kubeflow.org/workspace-name"
	workspaceSelectorLabel = "statefulset"
)

// NotebooksDerived builds, for every Workspace of the documents, the StatefulSet, the Service and
// the StatefulSet's first pod the controllers create (contract C1, controller "notebooks").
func NotebooksDerived(docs []corpus.Document) []corpus.Derived {
	derived, _ := NotebooksDerivation(docs)
	return derived
}

// NotebooksDerivation is NotebooksDerived with the Workspaces it built nothing for.
//
// A Workspace's WorkspaceKind is the one of that name in the same manifest set (file); else the
// one of that name in the same folder, then in all the documents, when all its definitions there
// are the same (one app installs the kind another app's Workspaces use, as the examples' platform
// does); else the Workspace is skipped: the controller would find no kind and set the Workspace's
// state to Error, building nothing. A WorkspaceKind that no Workspace of the documents uses is run
// with stand-in Workspaces ("probe-<n>" in "default"), one per image option (with the pod option
// its spawner defaults to, else the first) and one per other pod option, so every option's pieces
// reach the objects they land in.
func NotebooksDerivation(docs []corpus.Document) ([]corpus.Derived, []NotebooksSkip) {
	byFile := map[string][]corpus.Document{}
	byFolder := map[string][]corpus.Document{}
	var all []corpus.Document
	for _, d := range docs {
		if isNotebooksKind(d, "WorkspaceKind") {
			byFile[d.File] = append(byFile[d.File], d)
			byFolder[filepath.Dir(d.File)] = append(byFolder[filepath.Dir(d.File)], d)
			all = append(all, d)
		}
	}
	used := map[string]bool{}
	var out []corpus.Derived
	var skipped []NotebooksSkip
	for _, d := range docs {
		if !isNotebooksKind(d, "Workspace") {
			continue
		}
		kindName := workspaceKindName(d.Object)
		var kind corpus.Document
		ok := false
		for _, scope := range [][]corpus.Document{byFile[d.File], byFolder[filepath.Dir(d.File)], all} {
			if kind, ok = onlyDefinition(scope, kindName); ok {
				break
			}
		}
		if !ok {
			skipped = append(skipped, NotebooksSkip{From: d.Label(), Reason: fmt.Sprintf("no single WorkspaceKind %q in the input: the controller finds none and sets the Error state", kindName)})
			continue
		}
		used[kind.Label()] = true
		objects, err := WorkspaceObjects(d.Object, kind.Object)
		if err != nil {
			skipped = append(skipped, NotebooksSkip{From: d.Label(), Reason: err.Error()})
			continue
		}
		out = append(out, records(d.Label(), objects)...)
	}
	for _, k := range all {
		if used[k.Label()] {
			continue
		}
		for i, ws := range standInWorkspaces(k.Object) {
			objects, err := WorkspaceObjects(ws, k.Object)
			if err != nil {
				skipped = append(skipped, NotebooksSkip{From: fmt.Sprintf("%s (stand-in workspace %d)", k.Label(), i), Reason: err.Error()})
				continue
			}
			out = append(out, records(k.Label(), objects)...)
		}
	}
	return out, skipped
}

func isNotebooksKind(d corpus.Document, kind string) bool {
	return d.Kind() == kind && d.APIVersion() == "kubeflow.org/v1beta1"
}

func workspaceKindName(workspace map[string]any) string {
	name, _ := corpus.Map(workspace["spec"])["kind"].(string)
	return name
}

// onlyDefinition returns the kind of that name among the kinds when every definition of the name
// there is the same object.
func onlyDefinition(kinds []corpus.Document, name string) (corpus.Document, bool) {
	var found corpus.Document
	var first []byte
	for _, d := range kinds {
		if d.Name() != name {
			continue
		}
		raw, _ := json.Marshal(d.Object)
		if first == nil {
			found, first = d, raw
		} else if !bytes.Equal(first, raw) {
			return corpus.Document{}, false
		}
	}
	return found, first != nil
}

func records(from string, objects []map[string]any) []corpus.Derived {
	out := make([]corpus.Derived, 0, len(objects))
	for _, o := range objects {
		out = append(out, corpus.Derived{Controller: NotebooksController, From: from, Kind: o["kind"].(string), Object: o})
	}
	return out
}

// standInWorkspaces are the Workspaces a WorkspaceKind is run with when no Workspace names it.
func standInWorkspaces(kind map[string]any) []map[string]any {
	options := corpus.Map(corpus.Map(corpus.Map(kind["spec"])["podTemplate"])["options"])
	ids := func(catalogue string) ([]string, string) {
		c := corpus.Map(options[catalogue])
		var all []string
		for _, v := range corpus.Slice(c["values"]) {
			if id, ok := corpus.Map(v)["id"].(string); ok {
				all = append(all, id)
			}
		}
		def, _ := corpus.Map(c["spawner"])["default"].(string)
		if def == "" && len(all) > 0 {
			def = all[0]
		}
		return all, def
	}
	images, defaultImage := ids("imageConfig")
	pods, defaultPod := ids("podConfig")
	var pairs [][2]string
	for _, image := range images {
		pairs = append(pairs, [2]string{image, defaultPod})
	}
	for _, pod := range pods {
		if pod != defaultPod {
			pairs = append(pairs, [2]string{defaultImage, pod})
		}
	}
	name, _ := corpus.Map(kind["metadata"])["name"].(string)
	var out []map[string]any
	for i, p := range pairs {
		out = append(out, map[string]any{
			"apiVersion": "kubeflow.org/v1beta1", "kind": "Workspace",
			"metadata": map[string]any{"name": fmt.Sprintf("probe-%d", i), "namespace": "default"},
			"spec": map[string]any{"kind": name, "podTemplate": map[string]any{
				"options": map[string]any{"imageConfig": p[0], "podConfig": p[1]},
			}},
		})
	}
	return out
}

// WorkspaceObjects builds what the controllers create for one Workspace (as data, with the CRD's
// defaults applied or not) of the WorkspaceKind: the StatefulSet, the Service, and the pod, in that
// order (no pod when the Workspace is paused: the set has no replicas). An error is what the
// controller would put in the Workspace's state instead of building.
func WorkspaceObjects(workspace, kind map[string]any) ([]map[string]any, error) {
	meta := corpus.Map(workspace["metadata"])
	name, _ := meta["name"].(string)
	namespace, _ := meta["namespace"].(string)
	if namespace == "" {
		namespace = "default"
	}
	if name == "" {
		return nil, fmt.Errorf("the Workspace has no name")
	}
	wsSpec := corpus.Map(workspace["spec"])
	wsTemplate := corpus.Map(wsSpec["podTemplate"])
	kindTemplate := corpus.Map(corpus.Map(kind["spec"])["podTemplate"])
	options := corpus.Map(kindTemplate["options"])
	chosen := corpus.Map(wsTemplate["options"])

	// The option the Workspace names now: a redirect only marks a pending restart.
	image, err := chosenOption(options, chosen, "imageConfig")
	if err != nil {
		return nil, err
	}
	pod, err := chosenOption(options, chosen, "podConfig")
	if err != nil {
		return nil, err
	}
	imageSpec := corpus.Map(image["spec"])
	podSpec := corpus.Map(pod["spec"])

	ports, err := imagePorts(imageSpec)
	if err != nil {
		return nil, err
	}
	container := map[string]any{
		"name":            "main",
		"image":           imageSpec["image"],
		"imagePullPolicy": stringOr(imageSpec["imagePullPolicy"], "IfNotPresent"),
	}
	var containerPorts []any
	for _, p := range ports {
		containerPorts = append(containerPorts, map[string]any{"name": p.name, "containerPort": p.number, "protocol": "TCP"})
	}
	setIfPresent(container, "ports", containerPorts)
	env, err := workspaceEnv(kindTemplate, ports, namespace, name)
	if err != nil {
		return nil, err
	}
	setIfPresent(container, "env", env)
	if resources := corpus.Map(podSpec["resources"]); resources != nil {
		container["resources"] = resources
	}
	probes := corpus.Map(kindTemplate["probes"])
	for _, p := range []string{"readinessProbe", "livenessProbe", "startupProbe"} {
		copyField(container, probes, p, p)
	}
	copyField(container, kindTemplate, "containerSecurityContext", "securityContext")
	volumes, mounts := workspaceVolumes(corpus.Map(wsTemplate["volumes"]), kindTemplate)
	setIfPresent(container, "volumeMounts", mounts)

	spec := map[string]any{
		"containers":         []any{container},
		"serviceAccountName": workspaceServiceAccountName(name),
	}
	for _, f := range []string{"affinity", "nodeSelector", "tolerations"} {
		copyField(spec, podSpec, f, f)
	}
	copyField(spec, kindTemplate, "securityContext", "securityContext")
	setIfPresent(spec, "volumes", volumes)

	selector := map[string]any{workspaceNameLabel: name, workspaceSelectorLabel: name}
	// The Workspace's pod metadata over the kind's, key by key; the controller's labels over both.
	annotations := mergedStrings(kindTemplate, wsTemplate, "annotations")
	labels := mergedStrings(kindTemplate, wsTemplate, "labels")
	for k, v := range selector {
		labels[k] = v
	}
	templateMeta := map[string]any{"labels": labels}
	if len(annotations) > 0 {
		templateMeta["annotations"] = annotations
	}

	replicas := 1
	if paused, _ := wsSpec["paused"].(bool); paused {
		replicas = 0
	}
	owner := []any{map[string]any{
		"apiVersion": "kubeflow.org/v1beta1", "kind": "Workspace", "name": name, "uid": workspaceUID,
		"controller": true, "blockOwnerDeletion": true,
	}}
	ownedMeta := func(limit int) map[string]any {
		generateName := workspaceGenerateName(name, limit)
		return map[string]any{
			"generateName":    generateName,
			"name":            generatedName(generateName),
			"namespace":       namespace,
			"labels":          map[string]any{workspaceNameLabel: name},
			"ownerReferences": owner,
		}
	}
	set := map[string]any{
		"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": ownedMeta(workspaceStatefulSetNameLimit),
		"spec": map[string]any{
			"replicas": replicas,
			"selector": map[string]any{"matchLabels": copyStrings(selector)},
			"template": map[string]any{"metadata": templateMeta, "spec": spec},
		},
	}
	var servicePorts []any
	for _, p := range ports {
		servicePorts = append(servicePorts, map[string]any{"name": p.name, "port": p.number, "targetPort": p.number, "protocol": "TCP"})
	}
	serviceSpec := map[string]any{"selector": copyStrings(selector), "type": "ClusterIP"}
	setIfPresent(serviceSpec, "ports", servicePorts)
	service := map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": ownedMeta(workspaceServiceNameLimit),
		"spec":     serviceSpec,
	}
	objects := []map[string]any{deepCopy(set), deepCopy(service)}
	if first := StatefulSetFirstPod(deepCopy(set)); first != nil {
		objects = append(objects, first)
	}
	return objects, nil
}

// chosenOption finds the imageConfig or podConfig value the Workspace names; the controller
// reports an id the kind does not have ("<catalogue> with id %q not found") and builds nothing.
func chosenOption(options, chosen map[string]any, catalogue string) (map[string]any, error) {
	id, _ := chosen[catalogue].(string)
	for _, v := range corpus.Slice(corpus.Map(options[catalogue])["values"]) {
		if value := corpus.Map(v); value["id"] == id {
			return value, nil
		}
	}
	return nil, fmt.Errorf("%s with id %q not found: the controller sets the Error state", catalogue, id)
}

type workspacePort struct {
	id     string
	number any
	name   string
}

// imagePorts are the image's ports, each named `http-<number>` (the port's id is not a port
// name: it is part of the HTTP path); a number twice is an error the controller reports.
func imagePorts(imageSpec map[string]any) ([]workspacePort, error) {
	var out []workspacePort
	seen := map[string]bool{}
	for _, p := range corpus.Slice(imageSpec["ports"]) {
		port := corpus.Map(p)
		number := fmt.Sprint(port["port"])
		if seen[number] {
			return nil, fmt.Errorf("duplicate port number %s in imageConfig: the controller sets the Error state", number)
		}
		seen[number] = true
		id, _ := port["id"].(string)
		out = append(out, workspacePort{id: id, number: port["port"], name: "http-" + number})
	}
	return out, nil
}

// portID is the controller's type for a port id: the template function takes it, so an argument
// that is not a string constant must have that type, as in the controller.
type portID string

// workspaceEnv is the kind's extraEnv with each value rendered as a Go template with one function,
// httpPathPrefix, which gives `/workspace/connect/<namespace>/<workspace>/<port id>/` for a port
// id of the image, else "". A value that does not render is an error the controller reports.
func workspaceEnv(kindTemplate map[string]any, ports []workspacePort, namespace, name string) ([]any, error) {
	ids := map[portID]bool{}
	for _, p := range ports {
		ids[portID(p.id)] = true
	}
	prefix := func(id portID) string {
		if ids[id] {
			return fmt.Sprintf("/workspace/connect/%s/%s/%s/", namespace, name, id)
		}
		return ""
	}
	var out []any
	for _, e := range corpus.Slice(kindTemplate["extraEnv"]) {
		env := deepCopy(corpus.Map(e))
		if value, _ := env["value"].(string); value != "" {
			t, err := template.New("value").Funcs(template.FuncMap{"httpPathPrefix": prefix}).Parse(value)
			if err != nil {
				return nil, fmt.Errorf("failed to render extraEnv %q: %v", env["name"], err)
			}
			var buf bytes.Buffer
			if err := t.Execute(&buf, nil); err != nil {
				return nil, fmt.Errorf("failed to render extraEnv %q: %v", env["name"], err)
			}
			env["value"] = buf.String()
		}
		out = append(out, env)
	}
	return out, nil
}

// workspaceVolumes are the pod's volumes and the container's mounts, in the controller's order:
// the home PVC (`home-volume`, at the kind's home path), the data PVCs (`data-volume-<i>`, read-only
// as asked, default not), the Secrets (`secret-volume-<i>`, defaultMode default 420), then the
// kind's extra volumes and mounts. The controller silently drops a volume whose name is taken, a
// mount whose path is taken, and an extra mount of a volume the pod does not have.
func workspaceVolumes(wsVolumes, kindTemplate map[string]any) ([]any, []any) {
	var volumes, mounts []any
	names := map[any]bool{}
	paths := map[any]bool{}
	add := func(volume, mount map[string]any) {
		if names[volume["name"]] || paths[mount["mountPath"]] {
			return
		}
		names[volume["name"]], paths[mount["mountPath"]] = true, true
		volumes = append(volumes, volume)
		mounts = append(mounts, mount)
	}
	if home, ok := wsVolumes["home"]; ok && home != nil {
		homePath := corpus.Map(kindTemplate["volumeMounts"])["home"]
		add(map[string]any{"name": "home-volume", "persistentVolumeClaim": map[string]any{"claimName": home}},
			map[string]any{"name": "home-volume", "mountPath": homePath})
	}
	for i, v := range corpus.Slice(wsVolumes["data"]) {
		data := corpus.Map(v)
		volumeName := fmt.Sprintf("data-volume-%d", i)
		claim := map[string]any{"claimName": data["pvcName"]}
		mount := map[string]any{"name": volumeName, "mountPath": data["mountPath"]}
		if readOnly, _ := data["readOnly"].(bool); readOnly {
			claim["readOnly"] = true
			mount["readOnly"] = true
		}
		add(map[string]any{"name": volumeName, "persistentVolumeClaim": claim}, mount)
	}
	for i, v := range corpus.Slice(wsVolumes["secrets"]) {
		secret := corpus.Map(v)
		volumeName := fmt.Sprintf("secret-volume-%d", i)
		mode, ok := secret["defaultMode"]
		if !ok || mode == nil {
			mode = 420
		}
		add(map[string]any{"name": volumeName, "secret": map[string]any{"secretName": secret["secretName"], "defaultMode": mode}},
			map[string]any{"name": volumeName, "mountPath": secret["mountPath"]})
	}
	for _, v := range corpus.Slice(kindTemplate["extraVolumes"]) {
		volume := corpus.Map(v)
		if names[volume["name"]] {
			continue
		}
		names[volume["name"]] = true
		volumes = append(volumes, deepCopy(volume))
	}
	for _, m := range corpus.Slice(kindTemplate["extraVolumeMounts"]) {
		mount := corpus.Map(m)
		if paths[mount["mountPath"]] || !names[mount["name"]] {
			continue
		}
		paths[mount["mountPath"]] = true
		mounts = append(mounts, deepCopy(mount))
	}
	return volumes, mounts
}

// mergedStrings merges the `podMetadata.<field>` maps of the kind's and the Workspace's pod
// templates, the Workspace's value winning for a key both have.
func mergedStrings(kindTemplate, wsTemplate map[string]any, field string) map[string]any {
	out := map[string]any{}
	for _, t := range []map[string]any{kindTemplate, wsTemplate} {
		for k, v := range corpus.Map(corpus.Map(t["podMetadata"])[field]) {
			out[k] = v
		}
	}
	return out
}

func copyStrings(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func stringOr(v any, fallback string) any {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return fallback
}

func setIfPresent(m map[string]any, key string, values []any) {
	if len(values) > 0 {
		m[key] = values
	}
}
