package trainer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
	"github.com/kubeflow/trainer/v2/pkg/constants"
)

// Intent is what the author of a TrainJob asked for, in Kubernetes terms: what the JobSet a
// cluster builds from the job must show. The library writes one per TrainJob it renders (the
// sidecar `<manifest file>.intent.json`, keyed by namespace/name, see IntentFileOf); for a
// document without one (the upstream corpus) DeriveIntent reads it from the job's own spec.
//
// Unset fields were not asked for (the runtime's value stands) and are not compared.
type Intent struct {
	// Source is "recorded" (written by the library from the construct's props) or "derived".
	Source  string   `json:"source"`
	Image   *string  `json:"image,omitempty"`
	Command []string `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// ResourcesPerNode are the requests and limits of each training node's trainer container.
	ResourcesPerNode *corev1.ResourceRequirements `json:"resourcesPerNode,omitempty"`
	// AcceleratorsPerNode is the number of accelerators (of any vendor) each node asks for: when
	// NumProcPerNode is not set, torch and MPI jobs run one process per accelerator.
	AcceleratorsPerNode *int32 `json:"acceleratorsPerNode,omitempty"`
	NumNodes            *int32 `json:"numNodes,omitempty"`
	NumProcPerNode      *int32 `json:"numProcPerNode,omitempty"`
	// Env is the trainer container's environment on every training node, in the order written.
	Env []corev1.EnvVar `json:"env,omitempty"`
	// Pods are the pod settings asked for, each for some replicated jobs.
	Pods []PodIntent `json:"pods,omitempty"`
	// JobSetLabels and JobSetAnnotations go on the JobSet's own metadata.
	JobSetLabels      map[string]string `json:"jobSetLabels,omitempty"`
	JobSetAnnotations map[string]string `json:"jobSetAnnotations,omitempty"`
	// Initializers are keyed by step: "dataset-initializer", "model-initializer".
	Initializers map[string]InitializerIntent `json:"initializers,omitempty"`
	Suspend      *bool                        `json:"suspend,omitempty"`
}

// PodIntent is pod settings asked for the pods of some replicated jobs.
type PodIntent struct {
	// Jobs names the replicated jobs; empty means the jobs that run the training ranks.
	Jobs               []string            `json:"jobs,omitempty"`
	Labels             map[string]string   `json:"labels,omitempty"`
	Annotations        map[string]string   `json:"annotations,omitempty"`
	NodeSelector       map[string]string   `json:"nodeSelector,omitempty"`
	Tolerations        []corev1.Toleration `json:"tolerations,omitempty"`
	ServiceAccountName *string             `json:"serviceAccountName,omitempty"`
	// Mounts go into the trainer container (`node`) of those pods.
	Mounts []MountIntent `json:"mounts,omitempty"`
}

// MountIntent is one volume asked at one path of the trainer container.
type MountIntent struct {
	Path     string        `json:"path"`
	Volume   corev1.Volume `json:"volume"`
	ReadOnly bool          `json:"readOnly,omitempty"`
	SubPath  string        `json:"subPath,omitempty"`
}

// InitializerIntent is what an initializer step is asked to fetch.
type InitializerIntent struct {
	StorageURI *string         `json:"storageUri,omitempty"`
	Env        []corev1.EnvVar `json:"env,omitempty"`
	SecretRef  string          `json:"secretRef,omitempty"`
}

// IntentFileOf is the sidecar of a manifest file: `x.yaml` -> `x.intent.json`.
func IntentFileOf(manifest string) string {
	return strings.TrimSuffix(strings.TrimSuffix(manifest, ".yaml"), ".yml") + ".intent.json"
}

// LoadIntents reads the sidecar of a manifest file, keyed by namespace/name (an empty namespace
// is written as DefaultNamespace). No sidecar is an empty map. Unknown fields are an error: the
// library and this module must agree on the shape.
func LoadIntents(manifest string) (map[string]Intent, error) {
	raw, err := os.ReadFile(IntentFileOf(manifest))
	if os.IsNotExist(err) {
		return map[string]Intent{}, nil
	}
	if err != nil {
		return nil, err
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	intents := map[string]Intent{}
	if err := decoder.Decode(&intents); err != nil {
		return nil, fmt.Errorf("%s: %w", IntentFileOf(manifest), err)
	}
	for k, in := range intents {
		if in.Source != "recorded" {
			return nil, fmt.Errorf("%s: %s: source %q, expected \"recorded\"", IntentFileOf(manifest), k, in.Source)
		}
	}
	return intents, nil
}

// IntentKey is how a sidecar names a TrainJob.
func IntentKey(namespace, name string) string {
	if namespace == "" {
		namespace = DefaultNamespace
	}
	return namespace + "/" + name
}

// DeriveIntent reads what a TrainJob's author asked for from its spec: the trainer's fields as
// they are, the initializers, suspend, and the runtime patches' JobSet metadata and pod settings
// (each for the replicated job the patch names; mounts of its `node` container).
func DeriveIntent(job *trainer.TrainJob) Intent {
	in := Intent{Source: "derived", Suspend: job.Spec.Suspend}
	if t := job.Spec.Trainer; t != nil {
		in.Image, in.Command, in.Args = t.Image, t.Command, t.Args
		in.ResourcesPerNode, in.NumNodes, in.NumProcPerNode, in.Env = t.ResourcesPerNode, t.NumNodes, t.NumProcPerNode, t.Env
	}
	if i := job.Spec.Initializer; i != nil {
		in.Initializers = map[string]InitializerIntent{}
		if d := i.Dataset; d != nil {
			in.Initializers[constants.DatasetInitializer] = InitializerIntent{StorageURI: d.StorageUri, Env: d.Env, SecretRef: secretName(d.SecretRef)}
		}
		if m := i.Model; m != nil {
			in.Initializers[constants.ModelInitializer] = InitializerIntent{StorageURI: m.StorageUri, Env: m.Env, SecretRef: secretName(m.SecretRef)}
		}
	}
	for _, patch := range job.Spec.RuntimePatches {
		if patch.TrainingRuntimeSpec == nil || patch.TrainingRuntimeSpec.Template == nil {
			continue
		}
		template := patch.TrainingRuntimeSpec.Template
		if m := template.Metadata; m != nil {
			in.JobSetLabels = merged(in.JobSetLabels, m.Labels)
			in.JobSetAnnotations = merged(in.JobSetAnnotations, m.Annotations)
		}
		if template.Spec == nil {
			continue
		}
		for _, rj := range template.Spec.ReplicatedJobs {
			if rj.Template == nil || rj.Template.Spec == nil || rj.Template.Spec.Template == nil {
				continue
			}
			pod := rj.Template.Spec.Template
			p := PodIntent{Jobs: []string{rj.Name}}
			if pod.Metadata != nil {
				p.Labels, p.Annotations = pod.Metadata.Labels, pod.Metadata.Annotations
			}
			if s := pod.Spec; s != nil {
				p.NodeSelector, p.Tolerations, p.ServiceAccountName = s.NodeSelector, s.Tolerations, s.ServiceAccountName
				for _, c := range s.Containers {
					if c.Name != constants.Node {
						continue
					}
					for _, m := range c.VolumeMounts {
						mount := MountIntent{Path: m.MountPath, Volume: corev1.Volume{Name: m.Name}, ReadOnly: m.ReadOnly, SubPath: m.SubPath}
						for _, v := range s.Volumes {
							if v.Name == m.Name {
								mount.Volume = v
							}
						}
						p.Mounts = append(p.Mounts, mount)
					}
				}
			}
			in.Pods = append(in.Pods, p)
		}
	}
	return in
}

func secretName(ref *corev1.LocalObjectReference) string {
	if ref == nil {
		return ""
	}
	return ref.Name
}

func merged(into, from map[string]string) map[string]string {
	if len(from) == 0 {
		return into
	}
	if into == nil {
		into = map[string]string{}
	}
	for k, v := range from {
		into[k] = v
	}
	return into
}
