package kube

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// The notebooks controller model (notebooks_derived.go) on small inputs whose outcome the
// controller's source fixes: names, ports, labels, volumes, env, the pod, and what it refuses.

const notebooksKindYAML = `apiVersion: kubeflow.org/v1beta1
kind: WorkspaceKind
metadata:
  name: jupyterlab
spec:
  podTemplate:
    podMetadata:
      labels: {team: ml, statefulset: from-kind}
      annotations: {note: kind, kept: kind}
    extraEnv:
      - name: NB_PREFIX
        value: '{{ httpPathPrefix "jupyterlab" }}'
      - name: OTHER
        value: '{{ httpPathPrefix "unknown" }}'
    extraVolumes:
      - name: dshm
        emptyDir: {medium: Memory}
      - name: home-volume
        emptyDir: {}
    extraVolumeMounts:
      - {name: dshm, mountPath: /dev/shm}
      - {name: missing, mountPath: /missing}
      - {name: dshm, mountPath: /home/jovyan}
    securityContext: {fsGroup: 100}
    containerSecurityContext: {allowPrivilegeEscalation: false}
    probes:
      readinessProbe:
        httpGet: {path: /api, port: http-8888}
    volumeMounts: {home: /home/jovyan}
    ports:
      - {id: jupyterlab, protocol: HTTP, defaultDisplayName: JupyterLab}
    options:
      imageConfig:
        spawner: {default: scipy}
        values:
          - id: scipy
            spec:
              image: quay.io/jupyter/scipy-notebook:2025-01-06
              ports: [{id: jupyterlab, port: 8888}, {id: metrics, port: 65535}]
          - id: twice
            spec:
              image: quay.io/jupyter/scipy-notebook:2025-01-06
              ports: [{id: a, port: 8888}, {id: b, port: 8888}]
      podConfig:
        spawner: {default: cpu}
        values:
          - id: cpu
            spec:
              resources: {requests: {cpu: "1"}}
              nodeSelector: {pool: cpu}
`

const notebooksWorkspaceYAML = `apiVersion: kubeflow.org/v1beta1
kind: Workspace
metadata:
  name: alice
  namespace: team-a
spec:
  kind: jupyterlab
  podTemplate:
    podMetadata:
      labels: {team: research}
      annotations: {note: workspace}
    options: {imageConfig: scipy, podConfig: cpu}
    volumes:
      home: alice-home
      data:
        - {pvcName: imagenet, mountPath: /data, readOnly: true}
        - {pvcName: shadowed, mountPath: /home/jovyan}
      secrets:
        - {secretName: git, mountPath: /secrets/git}
`

func decodeAll(t *testing.T, file string, yamls ...string) []corpus.Document {
	t.Helper()
	docs, err := corpus.Decode(file, []byte(strings.Join(yamls, "---\n")))
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// at reads a value of JSON-shaped data by a dotted path; "[n]" indexes a list.
func at(t *testing.T, v any, path string) any {
	t.Helper()
	for _, part := range strings.Split(path, ".") {
		name, index, isIndexed := strings.Cut(part, "[")
		if name != "" {
			v = corpus.Map(v)[name]
		}
		if isIndexed {
			var n int
			if err := json.Unmarshal([]byte(strings.TrimSuffix(index, "]")), &n); err != nil {
				t.Fatalf("bad path %s", path)
			}
			list := corpus.Slice(v)
			if n >= len(list) {
				t.Fatalf("%s: index %d out of %d", path, n, len(list))
			}
			v = list[n]
		}
	}
	return v
}

func jsonEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	if !reflect.DeepEqual(gv, wv) {
		t.Errorf("%s:\n got  %s\n want %s", what, g, w)
	}
}

func byKind(records []corpus.Derived) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, r := range records {
		out[r.Kind] = r.Object
	}
	return out
}

func TestNotebooksDerivedObjects(t *testing.T) {
	docs := decodeAll(t, "set.yaml", notebooksKindYAML, notebooksWorkspaceYAML)
	records, skipped := NotebooksDerivation(docs)
	if len(skipped) != 0 {
		t.Fatalf("skipped: %v", skipped)
	}
	if len(records) != 3 {
		t.Fatalf("%d records, want a StatefulSet, a Service and a Pod", len(records))
	}
	for i, kind := range []string{"StatefulSet", "Service", "Pod"} {
		r := records[i]
		if r.Kind != kind || r.Controller != "notebooks" || r.From != "set.yaml#1 Workspace team-a/alice" {
			t.Errorf("record %d: %s %s from %q", i, r.Controller, r.Kind, r.From)
		}
		for _, e := range ValidateDerived(r) {
			t.Errorf("%s refused: %s", kind, e)
		}
	}
	o := byKind(records)
	set, service, pod := o["StatefulSet"], o["Service"], o["Pod"]

	jsonEqual(t, "StatefulSet metadata", at(t, set, "metadata"), map[string]any{
		"generateName": "ws-alice-", "name": "ws-alice-" + generatedSuffix, "namespace": "team-a",
		"labels": map[string]any{"notebooks.kubeflow.org/workspace-name": "alice"},
		"ownerReferences": []any{map[string]any{"apiVersion": "kubeflow.org/v1beta1", "kind": "Workspace", "name": "alice",
			"uid": workspaceUID, "controller": true, "blockOwnerDeletion": true}},
	})
	selector := map[string]any{"notebooks.kubeflow.org/workspace-name": "alice", "statefulset": "alice"}
	jsonEqual(t, "StatefulSet replicas", at(t, set, "spec.replicas"), 1)
	jsonEqual(t, "StatefulSet selector", at(t, set, "spec.selector.matchLabels"), selector)
	// The Workspace's pod metadata over the kind's; the controller's labels over both.
	jsonEqual(t, "template labels", at(t, set, "spec.template.metadata.labels"),
		map[string]any{"team": "research", "statefulset": "alice", "notebooks.kubeflow.org/workspace-name": "alice"})
	jsonEqual(t, "template annotations", at(t, set, "spec.template.metadata.annotations"), map[string]any{"note": "workspace", "kept": "kind"})

	spec := at(t, set, "spec.template.spec")
	jsonEqual(t, "service account", at(t, spec, "serviceAccountName"), "ws-alice")
	jsonEqual(t, "node selector", at(t, spec, "nodeSelector"), map[string]any{"pool": "cpu"})
	jsonEqual(t, "pod security context", at(t, spec, "securityContext"), map[string]any{"fsGroup": 100})
	c := at(t, spec, "containers[0]")
	jsonEqual(t, "container name, image, pull policy", []any{at(t, c, "name"), at(t, c, "image"), at(t, c, "imagePullPolicy")},
		[]any{"main", "quay.io/jupyter/scipy-notebook:2025-01-06", "IfNotPresent"})
	// Ports are named after their numbers, never their ids.
	jsonEqual(t, "container ports", at(t, c, "ports"), []any{
		map[string]any{"name": "http-8888", "containerPort": 8888, "protocol": "TCP"},
		map[string]any{"name": "http-65535", "containerPort": 65535, "protocol": "TCP"},
	})
	jsonEqual(t, "env", at(t, c, "env"), []any{
		map[string]any{"name": "NB_PREFIX", "value": "/workspace/connect/team-a/alice/jupyterlab/"},
		map[string]any{"name": "OTHER", "value": ""},
	})
	jsonEqual(t, "resources", at(t, c, "resources"), map[string]any{"requests": map[string]any{"cpu": "1"}})
	jsonEqual(t, "readiness probe", at(t, c, "readinessProbe.httpGet.port"), "http-8888")
	// home first; the data PVC at the home path, the kind's volume named like home's, its mount
	// of a volume the pod lacks and its mount at the home path are dropped.
	jsonEqual(t, "volumes", at(t, spec, "volumes"), []any{
		map[string]any{"name": "home-volume", "persistentVolumeClaim": map[string]any{"claimName": "alice-home"}},
		map[string]any{"name": "data-volume-0", "persistentVolumeClaim": map[string]any{"claimName": "imagenet", "readOnly": true}},
		map[string]any{"name": "secret-volume-0", "secret": map[string]any{"secretName": "git", "defaultMode": 420}},
		map[string]any{"name": "dshm", "emptyDir": map[string]any{"medium": "Memory"}},
	})
	jsonEqual(t, "mounts", at(t, c, "volumeMounts"), []any{
		map[string]any{"name": "home-volume", "mountPath": "/home/jovyan"},
		map[string]any{"name": "data-volume-0", "mountPath": "/data", "readOnly": true},
		map[string]any{"name": "secret-volume-0", "mountPath": "/secrets/git"},
		map[string]any{"name": "dshm", "mountPath": "/dev/shm"},
	})

	jsonEqual(t, "Service name", []any{at(t, service, "metadata.generateName"), at(t, service, "metadata.name")},
		[]any{"ws-alice-", "ws-alice-" + generatedSuffix})
	jsonEqual(t, "Service spec", at(t, service, "spec"), map[string]any{
		"type": "ClusterIP", "selector": selector,
		"ports": []any{
			map[string]any{"name": "http-8888", "port": 8888, "targetPort": 8888, "protocol": "TCP"},
			map[string]any{"name": "http-65535", "port": 65535, "targetPort": 65535, "protocol": "TCP"},
		},
	})

	podName := "ws-alice-" + generatedSuffix + "-0"
	jsonEqual(t, "pod name, hostname", []any{at(t, pod, "metadata.name"), at(t, pod, "metadata.generateName"), at(t, pod, "spec.hostname")},
		[]any{podName, "ws-alice-" + generatedSuffix + "-", podName})
	labels := corpus.Map(at(t, pod, "metadata.labels"))
	revision, _ := labels["controller-revision-hash"].(string)
	hash := strings.TrimPrefix(revision, "ws-alice-"+generatedSuffix+"-")
	if hash == revision || len(hash) == 0 || len(hash) > 10 {
		t.Errorf("controller-revision-hash %q is not <set>-<hash of at most 10>", revision)
	}
	jsonEqual(t, "pod labels", labels, map[string]any{
		"team": "research", "statefulset": "alice", "notebooks.kubeflow.org/workspace-name": "alice",
		"statefulset.kubernetes.io/pod-name": podName, "apps.kubernetes.io/pod-index": "0", "controller-revision-hash": revision,
	})
	jsonEqual(t, "pod owner", at(t, pod, "metadata.ownerReferences[0].name"), "ws-alice-"+generatedSuffix)
	jsonEqual(t, "pod containers", at(t, pod, "spec.containers"), at(t, set, "spec.template.spec.containers"))
}

// The longest Workspace name (a 63-character DNS label): the StatefulSet's generateName is cut to
// 45 characters (here ending in the name's own "-"), the Service's to 56, so the set's name is 50,
// its pod's 52 and the revision label at most 61, every one valid.
func TestNotebooksDerivedLongestName(t *testing.T) {
	name := strings.Repeat("a", 41) + "-" + strings.Repeat("b", 21)
	ws := strings.Replace(notebooksWorkspaceYAML, "name: alice", "name: "+name, 1)
	records, skipped := NotebooksDerivation(decodeAll(t, "set.yaml", notebooksKindYAML, ws))
	if len(skipped) != 0 || len(records) != 3 {
		t.Fatalf("%d records, skipped %v", len(records), skipped)
	}
	o := byKind(records)
	jsonEqual(t, "StatefulSet generateName", at(t, o["StatefulSet"], "metadata.generateName"), "ws-"+strings.Repeat("a", 41)+"-")
	jsonEqual(t, "Service generateName", at(t, o["Service"], "metadata.generateName"), "ws-"+name[:53]+"-")
	jsonEqual(t, "pod name", at(t, o["Pod"], "metadata.name"), "ws-"+strings.Repeat("a", 41)+"-"+generatedSuffix+"-0")
	for _, r := range records {
		for _, e := range ValidateDerived(r) {
			t.Errorf("%s refused: %s", r.Kind, e)
		}
	}
	// A cut that ends in "-" gets no second one.
	if got := workspaceGenerateName(strings.Repeat("c", 41)+"-x", workspaceStatefulSetNameLimit); got != "ws-"+strings.Repeat("c", 41)+"-" {
		t.Errorf("generateName %q", got)
	}
	// The ServiceAccount name is cut with a hash only past 253 characters.
	long := strings.Repeat("d", 260)
	if got := workspaceServiceAccountName(long); len(got) != 253 || !strings.HasPrefix(got, "ws-ddd") || got[244] != '-' {
		t.Errorf("service account name %q (%d)", got, len(got))
	}
}

// What the controller builds nothing for, and a paused Workspace, which has no pod.
func TestNotebooksDerivedSkipsAndPause(t *testing.T) {
	cases := []struct {
		name, from, to, reason string
	}{
		{"unknown image option", "imageConfig: scipy", "imageConfig: gone", `imageConfig with id "gone" not found: the controller sets the Error state`},
		{"a port number twice", "imageConfig: scipy", "imageConfig: twice", "duplicate port number 8888 in imageConfig: the controller sets the Error state"},
		{"no such kind", "kind: jupyterlab\n  podTemplate", "kind: rstudio\n  podTemplate", `no single WorkspaceKind "rstudio" in the input: the controller finds none and sets the Error state`},
	}
	for _, c := range cases {
		ws := strings.Replace(notebooksWorkspaceYAML, c.from, c.to, 1)
		records, skipped := NotebooksDerivation(decodeAll(t, "set.yaml", notebooksKindYAML, ws))
		var workspaceRecords int
		for _, r := range records {
			if strings.Contains(r.From, "Workspace team-a/alice") {
				workspaceRecords++
			}
		}
		var reasons []string
		for _, s := range skipped {
			if strings.Contains(s.From, "Workspace team-a/alice") {
				reasons = append(reasons, s.Reason)
			}
		}
		if workspaceRecords != 0 || len(reasons) != 1 || reasons[0] != c.reason {
			t.Errorf("%s: %d records, skipped %v; want the reason %q", c.name, workspaceRecords, reasons, c.reason)
		}
	}
	paused := strings.Replace(notebooksWorkspaceYAML, "  kind: jupyterlab", "  kind: jupyterlab\n  paused: true", 1)
	records, _ := NotebooksDerivation(decodeAll(t, "set.yaml", notebooksKindYAML, paused))
	if len(records) != 2 || at(t, records[0].Object, "spec.replicas") != float64(0) && at(t, records[0].Object, "spec.replicas") != 0 {
		t.Errorf("paused: %d records, replicas %v; want a StatefulSet of 0 replicas and a Service, no pod", len(records), at(t, records[0].Object, "spec.replicas"))
	}
}

// A WorkspaceKind no Workspace names runs with stand-in Workspaces, one per image option with the
// default pod option; a kind in another file is used when all its definitions agree.
func TestNotebooksDerivedStandInsAndOtherFiles(t *testing.T) {
	records, skipped := NotebooksDerivation(decodeAll(t, "kind.yaml", notebooksKindYAML))
	// scipy builds 3 objects; "twice" has a port number twice: skipped.
	if len(records) != 3 || len(skipped) != 1 || !strings.HasPrefix(skipped[0].From, "kind.yaml#0 WorkspaceKind (no namespace)/jupyterlab (stand-in workspace 1)") {
		t.Fatalf("%d records, skipped %v", len(records), skipped)
	}
	jsonEqual(t, "stand-in set name", at(t, records[0].Object, "metadata.name"), "ws-probe-0-"+generatedSuffix)

	docs := append(decodeAll(t, "kind.yaml", notebooksKindYAML), decodeAll(t, "ws.yaml", notebooksWorkspaceYAML)...)
	records, skipped = NotebooksDerivation(docs)
	if len(records) != 3 || len(skipped) != 0 || records[0].From != "ws.yaml#0 Workspace team-a/alice" {
		t.Errorf("kind in another file: %d records, skipped %v", len(records), skipped)
	}
	other := strings.Replace(notebooksKindYAML, "fsGroup: 100", "fsGroup: 101", 1)
	docs = append(docs, decodeAll(t, "other.yaml", other)...)
	records, skipped = NotebooksDerivation(docs)
	for _, r := range records {
		if strings.HasPrefix(r.From, "ws.yaml") {
			t.Errorf("two different kinds of the name: built %s for %s", r.Kind, r.From)
		}
	}
	if countWorkspaceSkips(skipped) != 1 {
		t.Errorf("two different kinds of the name: skipped %v", skipped)
	}
}

// TestNotebooksDerivedInputs prints what the model does with the manifests: the Workspaces built,
// the stand-ins run for kinds no Workspace names, and each Workspace it built nothing for, with
// the reason (TestDerived validates what it built).
func TestNotebooksDerivedInputs(t *testing.T) {
	docs, err := corpus.ReadDirs(corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...))
	if err != nil {
		t.Fatal(err)
	}
	records, skipped := NotebooksDerivation(docs)
	workspaces, kinds := 0, 0
	for _, d := range docs {
		switch {
		case isNotebooksKind(d, "Workspace"):
			workspaces++
		case isNotebooksKind(d, "WorkspaceKind"):
			kinds++
		}
	}
	fromWorkspaces, fromStandIns := map[string]bool{}, 0
	for _, r := range records {
		if strings.Contains(r.From, " Workspace ") {
			fromWorkspaces[r.From] = true
		} else if r.Kind == "StatefulSet" {
			fromStandIns++
		}
	}
	fmt.Printf("notebooks model: %d Workspaces, %d built, %d skipped; %d WorkspaceKinds, %d stand-in Workspaces built for those no Workspace names; %d derived objects\n",
		workspaces, len(fromWorkspaces), countWorkspaceSkips(skipped), kinds, fromStandIns, len(records))
	for _, s := range skipped {
		t.Logf("built nothing for %s: %s", s.From, s.Reason)
	}
}

func countWorkspaceSkips(skipped []NotebooksSkip) int {
	n := 0
	for _, s := range skipped {
		if strings.Contains(s.From, " Workspace ") {
			n++
		}
	}
	return n
}
