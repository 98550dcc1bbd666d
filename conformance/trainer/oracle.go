package trainer

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/kubeflow/trainer/v2/pkg/constants"
	jobruntime "github.com/kubeflow/trainer/v2/pkg/runtime"
	jobsetplgconsts "github.com/kubeflow/trainer/v2/pkg/runtime/framework/plugins/jobset/constants"
)

// Difference is one thing the author asked for that the built JobSet does not have.
type Difference struct {
	// Job is the TrainJob (namespace/name).
	Job string
	// Field names what was compared, with the replicated job in brackets: `image [node]`.
	Field string
	Asked string
	Built string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: %s: asked %s, built %s", d.Job, d.Field, d.Asked, d.Built)
}

// Comparison is the outcome of comparing one intent with one built JobSet.
type Comparison struct {
	// Compared counts the fields compared (one per field and replicated job).
	Compared int
	// Checks lists the kinds of field compared (`image`, `env`, ...), for the field table.
	Checks      map[string]bool
	Differences []Difference
}

type comparer struct {
	job   string
	built *Built
	out   *Comparison
}

func (c *comparer) compare(kind, field, rj string, asked, built string) {
	c.out.Compared++
	c.out.Checks[kind] = true
	if asked != built {
		c.out.Differences = append(c.out.Differences, Difference{Job: c.job, Field: fmt.Sprintf("%s [%s]", field, rj), Asked: asked, Built: built})
	}
}

// Compare holds a built JobSet to the intent. The jobs that run the training ranks get the
// trainer's fields: the replicated jobs labelled as the trainer step; on an MPI runtime the
// `node` job, and the `launcher` too when it runs as a node (runLauncherAsNode). On MPI the
// command, args and env belong to the launcher (it runs mpirun: the job's env is mpirun's, and the
// ranks get what mpirun forwards with -x, as docs/constructs/trainer-v2.md says), the image to the
// launcher and the ranks.
func Compare(in Intent, b *Built) Comparison {
	out := Comparison{Checks: map[string]bool{}}
	c := &comparer{job: IntentKey(b.TrainJob.Namespace, b.TrainJob.Name), built: b, out: &out}
	js := b.JobSet
	ranks := rankJobs(b)
	commandJobs := ranks
	imageJobs := ranks
	envJobs := ranks
	if isMPI(b) {
		commandJobs = jobsNamed(js, constants.Launcher)
		imageJobs = uniqueJobs(append(append([]*jobsetv1alpha2.ReplicatedJob{}, ranks...), commandJobs...))
		envJobs = commandJobs
	}
	if len(ranks) == 0 {
		c.compare("nodes", "replicated job that runs the training ranks", "-", "present", "none")
		return out
	}
	if in.Image != nil {
		for _, rj := range imageJobs {
			c.compare("image", "image", rj.Name, *in.Image, containerOf(rj).Image)
		}
	}
	if isFlux(b) && (in.Command != nil || in.Args != nil) {
		// Flux runs the job's command and args as one line under its entrypoint.
		for _, rj := range commandJobs {
			c.compare("command", "command (run by the Flux entrypoint)", rj.Name, fluxLine(in, b, rj), fluxWrapped(containerOf(rj).Command))
		}
	} else if in.Command != nil {
		for _, rj := range commandJobs {
			built := containerOf(rj).Command
			if isTorch(b) && reflect.DeepEqual(in.Command, constants.TorchTuneEntrypoint) && len(built) >= len(in.Command) {
				// torchtune: the torch plugin appends the recipe and its config to `tune run`.
				built = built[:len(in.Command)]
			}
			c.compare("command", "command", rj.Name, quoted(in.Command), quoted(built))
		}
	}
	if in.Args != nil && !isFlux(b) {
		for _, rj := range commandJobs {
			c.compare("args", "args", rj.Name, quoted(in.Args), quoted(containerOf(rj).Args))
		}
	}
	if r := in.ResourcesPerNode; r != nil {
		for _, rj := range ranks {
			built := containerOf(rj).Resources
			compareQuantities(c, "requests", rj.Name, r.Requests, built.Requests)
			compareQuantities(c, "limits", rj.Name, r.Limits, built.Limits)
		}
	}
	if in.NumNodes != nil {
		total := int32(0)
		for _, rj := range ranks {
			p := ptrInt(rj.Template.Spec.Parallelism, 1)
			c.compare("nodes", "completions (= parallelism)", rj.Name, strconv.Itoa(int(p)), strconv.Itoa(int(ptrInt(rj.Template.Spec.Completions, 1))))
			total += p * rj.Replicas
		}
		c.compare("nodes", "nodes (parallelism)", jobNames(ranks), strconv.Itoa(int(*in.NumNodes)), strconv.Itoa(int(total)))
		if b.Hostfile != nil {
			c.compare("nodes", "nodes (MPI hostfile)", "hostfile", strconv.Itoa(int(*in.NumNodes)), strconv.Itoa(len(hostfileSlots(b.Hostfile))))
		}
	}
	if procs := askedProcs(in, b); procs != nil {
		for _, rj := range ranks {
			c.compare("processes", "processes per node", rj.Name, strconv.Itoa(int(*procs)), builtProcs(b, rj))
		}
	}
	for _, rj := range envJobs {
		compareEnv(c, "env", rj.Name, in.Env, containerOf(rj).Env)
	}
	for _, rj := range ranks {
		compareRuntimeMounts(c, b, rj)
	}
	for _, p := range in.Pods {
		jobs := ranks
		if len(p.Jobs) > 0 {
			jobs = nil
			for _, name := range p.Jobs {
				found := jobsNamed(js, name)
				built := "present"
				if len(found) == 0 {
					built = "none"
				}
				c.compare("pods", "replicated job", name, "present", built)
				jobs = append(jobs, found...)
			}
		}
		for _, rj := range jobs {
			comparePod(c, p, rj)
		}
	}
	compareMap(c, "jobSetMetadata", "JobSet label", "JobSet", in.JobSetLabels, js.Labels)
	compareMap(c, "jobSetMetadata", "JobSet annotation", "JobSet", in.JobSetAnnotations, js.Annotations)
	for step, init := range in.Initializers {
		jobs := jobsLabelled(js, step)
		if len(jobs) == 0 {
			c.compare("initializer", step+" step", step, "present", "none")
			continue
		}
		for _, rj := range jobs {
			container := namedContainer(rj, step)
			if container == nil {
				c.compare("initializer", step+" container", rj.Name, "present", "none")
				continue
			}
			if init.StorageURI != nil {
				c.compare("initializer.storageUri", "env "+jobsetplgconsts.InitializerEnvStorageUri, rj.Name, *init.StorageURI, envValue(container.Env, jobsetplgconsts.InitializerEnvStorageUri))
			}
			compareEnv(c, "initializer.env", rj.Name, init.Env, container.Env)
			if init.SecretRef != "" {
				found := "none"
				for _, from := range container.EnvFrom {
					if from.SecretRef != nil && from.SecretRef.Name == init.SecretRef {
						found = init.SecretRef
					}
				}
				c.compare("initializer.secretRef", "envFrom secret", rj.Name, init.SecretRef, found)
			}
		}
	}
	if in.Suspend != nil {
		c.compare("suspend", "suspend", "JobSet", strconv.FormatBool(*in.Suspend), strconv.FormatBool(ptrBool(js.Spec.Suspend)))
	}
	return out
}

func isTorch(b *Built) bool {
	return b.Runtime.MLPolicy != nil && b.Runtime.MLPolicy.Torch != nil
}

func isFlux(b *Built) bool {
	return b.Runtime.MLPolicy != nil && b.Runtime.MLPolicy.Flux != nil
}

// fluxEntrypoint is the command the Flux plugin gives the trainer container, before the job's line.
var fluxEntrypoint = []string{"/bin/bash", "/etc/flux-config/entrypoint.sh"}

// fluxLine is the line the job asks Flux to run: its command (else the runtime's) and args.
func fluxLine(in Intent, b *Built, rj *jobsetv1alpha2.ReplicatedJob) string {
	command, args := in.Command, in.Args
	for _, r := range b.Runtime.Template.Spec.ReplicatedJobs {
		if r.Name != rj.Name {
			continue
		}
		for _, container := range r.Template.Spec.Template.Spec.Containers {
			if container.Name == constants.Node {
				if command == nil {
					command = container.Command
				}
				if args == nil {
					args = container.Args
				}
			}
		}
	}
	return strconv.Quote(strings.TrimSpace(strings.Join(append(append([]string{}, command...), args...), " ")))
}

// fluxWrapped is the line a built command hands the Flux entrypoint, or the command itself.
func fluxWrapped(command []string) string {
	if len(command) == 3 && reflect.DeepEqual(command[:2], fluxEntrypoint) {
		return strconv.Quote(command[2])
	}
	return quoted(command)
}

// fluxFlags matches the task flags of the Flux entrypoint script: `-N <nodes> -n <tasks>`.
var fluxFlags = regexp.MustCompile(`-N (\d+) -n (\d+)`)

func isMPI(b *Built) bool {
	return b.Runtime.MLPolicy != nil && b.Runtime.MLPolicy.MPI != nil
}

func runLauncherAsNode(b *Built) bool {
	return isMPI(b) && ptrBool(b.Runtime.MLPolicy.MPI.RunLauncherAsNode)
}

// rankJobs are the replicated jobs whose pods run the training ranks.
func rankJobs(b *Built) []*jobsetv1alpha2.ReplicatedJob {
	if isMPI(b) {
		jobs := jobsNamed(b.JobSet, constants.Node)
		if runLauncherAsNode(b) {
			jobs = append(jobs, jobsNamed(b.JobSet, constants.Launcher)...)
		}
		return jobs
	}
	return jobsLabelled(b.JobSet, constants.AncestorTrainer)
}

func jobsNamed(js *jobsetv1alpha2.JobSet, name string) []*jobsetv1alpha2.ReplicatedJob {
	var out []*jobsetv1alpha2.ReplicatedJob
	for i := range js.Spec.ReplicatedJobs {
		if js.Spec.ReplicatedJobs[i].Name == name {
			out = append(out, &js.Spec.ReplicatedJobs[i])
		}
	}
	return out
}

func jobsLabelled(js *jobsetv1alpha2.JobSet, ancestor string) []*jobsetv1alpha2.ReplicatedJob {
	var out []*jobsetv1alpha2.ReplicatedJob
	for i := range js.Spec.ReplicatedJobs {
		if js.Spec.ReplicatedJobs[i].Template.Labels[constants.LabelTrainJobAncestor] == ancestor {
			out = append(out, &js.Spec.ReplicatedJobs[i])
		}
	}
	return out
}

func uniqueJobs(jobs []*jobsetv1alpha2.ReplicatedJob) []*jobsetv1alpha2.ReplicatedJob {
	var out []*jobsetv1alpha2.ReplicatedJob
	seen := map[string]bool{}
	for _, rj := range jobs {
		if !seen[rj.Name] {
			seen[rj.Name] = true
			out = append(out, rj)
		}
	}
	return out
}

func jobNames(jobs []*jobsetv1alpha2.ReplicatedJob) string {
	var names []string
	for _, rj := range jobs {
		names = append(names, rj.Name)
	}
	return strings.Join(names, "+")
}

func namedContainer(rj *jobsetv1alpha2.ReplicatedJob, name string) *corev1.Container {
	for i := range rj.Template.Spec.Template.Spec.Containers {
		if rj.Template.Spec.Template.Spec.Containers[i].Name == name {
			return &rj.Template.Spec.Template.Spec.Containers[i]
		}
	}
	return nil
}

// containerOf is the trainer container (`node`) of a replicated job, or an empty one.
func containerOf(rj *jobsetv1alpha2.ReplicatedJob) *corev1.Container {
	if c := namedContainer(rj, constants.Node); c != nil {
		return c
	}
	return &corev1.Container{}
}

func compareQuantities(c *comparer, which, rj string, asked, built corev1.ResourceList) {
	for _, name := range sortedResourceNames(asked) {
		q := asked[name]
		got := "none"
		if b, ok := built[name]; ok {
			got = b.String()
			if b.Cmp(q) == 0 {
				got = q.String()
			}
		}
		c.compare("resources", fmt.Sprintf("%s[%s]", which, name), rj, q.String(), got)
	}
}

func sortedResourceNames(l corev1.ResourceList) []corev1.ResourceName {
	var names []corev1.ResourceName
	for n := range l {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// askedProcs is the number of processes per node asked: numProcPerNode, else, on torch and MPI
// runtimes, one per accelerator the job asks for.
func askedProcs(in Intent, b *Built) *int32 {
	if in.NumProcPerNode != nil {
		return in.NumProcPerNode
	}
	p := b.Runtime.MLPolicy
	if in.AcceleratorsPerNode != nil && *in.AcceleratorsPerNode > 0 && p != nil && (p.Torch != nil || p.MPI != nil) {
		return in.AcceleratorsPerNode
	}
	return nil
}

// builtProcs is the number of processes per node the built objects start, as each plugin exposes
// it: torch's PET_NPROC_PER_NODE ("auto" is one per GPU torchrun sees), the MPI hostfile's slots,
// JAX's one process per node (JAX_NUM_PROCESSES is the number of nodes), XGBoost's
// DMLC_NUM_WORKER over the nodes.
func builtProcs(b *Built, rj *jobsetv1alpha2.ReplicatedJob) string {
	p := b.Runtime.MLPolicy
	container := containerOf(rj)
	nodes := ptrInt(rj.Template.Spec.Parallelism, 1)
	switch {
	case p == nil:
		return "not set (the runtime has no ML policy)"
	case p.Torch != nil:
		v := envValue(container.Env, constants.TorchEnvNumProcPerNode)
		if v == "auto" {
			gpus := jobruntime.GetNumGPUPerNode(&container.Resources)
			if gpus == 0 {
				return "auto (no GPU: torchrun starts one per CPU)"
			}
			return strconv.Itoa(gpus)
		}
		return v
	case p.MPI != nil:
		if b.Hostfile == nil {
			return "no hostfile"
		}
		slots := hostfileSlots(b.Hostfile)
		distinct := map[string]bool{}
		for _, s := range slots {
			distinct[s] = true
		}
		if len(distinct) == 1 {
			return slots[0]
		}
		return strings.Join(slots, ",")
	case p.JAX != nil:
		v := envValue(container.Env, "JAX_NUM_PROCESSES")
		n, err := strconv.Atoi(v)
		if err != nil || nodes == 0 || n%int(nodes) != 0 {
			return fmt.Sprintf("JAX_NUM_PROCESSES=%s over %d nodes", v, nodes)
		}
		return strconv.Itoa(n / int(nodes))
	case p.Flux != nil:
		if b.FluxEntrypoint == nil {
			return "no Flux entrypoint"
		}
		for _, script := range b.FluxEntrypoint.Data {
			if m := fluxFlags.FindStringSubmatch(script); m != nil {
				n, _ := strconv.Atoi(m[1])
				tasks, _ := strconv.Atoi(m[2])
				if n == 0 || tasks%n != 0 {
					return fmt.Sprintf("-N %s -n %s", m[1], m[2])
				}
				return strconv.Itoa(tasks / n)
			}
		}
		return "no task flags in the Flux entrypoint"
	case p.XGBoost != nil:
		v := envValue(container.Env, constants.XGBoostEnvNumWorker)
		n, err := strconv.Atoi(v)
		if err != nil || nodes == 0 || n%int(nodes) != 0 {
			return fmt.Sprintf("%s=%s over %d nodes", constants.XGBoostEnvNumWorker, v, nodes)
		}
		return strconv.Itoa(n / int(nodes))
	}
	return "not set (the runtime's plugin exposes no process count)"
}

// hostfileSlots are the slots of each host line of the MPI hostfile.
func hostfileSlots(cm *corev1.ConfigMap) []string {
	var slots []string
	for _, line := range strings.Split(cm.Data[constants.MPIHostfileName], "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		slot := "none"
		for _, f := range fields[1:] {
			if v, ok := strings.CutPrefix(f, "slots="); ok {
				slot = v
			}
		}
		slots = append(slots, slot)
	}
	return slots
}

func envValue(env []corev1.EnvVar, name string) string {
	v := "none"
	for _, e := range env {
		if e.Name == name {
			v = describeEnv(e)
		}
	}
	return v
}

func describeEnv(e corev1.EnvVar) string {
	if e.ValueFrom != nil {
		return fmt.Sprintf("valueFrom %s", compactJSON(e.ValueFrom))
	}
	return e.Value
}

// compareEnv checks each asked variable: present once the kubelet has built the container's
// environment, with the asked value, `$(NAME)` references expanded as they would be if every
// variable of the container were defined before it (the kubelet expands only references to
// earlier entries).
func compareEnv(c *comparer, kind, rj string, asked, built []corev1.EnvVar) {
	if len(asked) == 0 {
		return
	}
	all := map[string]string{}
	for _, e := range built {
		all[e.Name] = e.Value
		if e.ValueFrom != nil {
			all[e.Name] = "<" + describeEnv(e) + ">"
		}
	}
	effective := ExpandEnv(built)
	for _, e := range asked {
		field := "env " + e.Name
		if e.ValueFrom != nil {
			c.compare(kind, field, rj, describeEnv(e), envValue(built, e.Name))
			continue
		}
		want := Expand(e.Value, func(name string) (string, bool) { v, ok := all[name]; return v, ok })
		got, ok := effective[e.Name]
		if !ok {
			got = "none"
			if envValue(built, e.Name) != "none" {
				got = envValue(built, e.Name)
			}
		}
		c.compare(kind, field, rj, strconv.Quote(want), quoteUnlessNone(got, ok))
	}
}

func quoteUnlessNone(v string, ok bool) string {
	if !ok {
		return v
	}
	return strconv.Quote(v)
}

// compareRuntimeMounts checks that the trainer container of a rank job keeps every mount the
// runtime gives it (the workspace the initializers fill, a cache): asking for a runtime is asking
// for those.
func compareRuntimeMounts(c *comparer, b *Built, rj *jobsetv1alpha2.ReplicatedJob) {
	var runtimeContainer *corev1.Container
	for i := range b.Runtime.Template.Spec.ReplicatedJobs {
		r := &b.Runtime.Template.Spec.ReplicatedJobs[i]
		if r.Name == rj.Name {
			for j := range r.Template.Spec.Template.Spec.Containers {
				if r.Template.Spec.Template.Spec.Containers[j].Name == constants.Node {
					runtimeContainer = &r.Template.Spec.Template.Spec.Containers[j]
				}
			}
		}
	}
	if runtimeContainer == nil {
		return
	}
	built := containerOf(rj)
	for _, m := range runtimeContainer.VolumeMounts {
		got := "none"
		for _, bm := range built.VolumeMounts {
			if bm.MountPath == m.MountPath {
				got = "volume " + bm.Name
			}
		}
		c.compare("runtimeMounts", "runtime's mount "+m.MountPath, rj.Name, "volume "+m.Name, got)
	}
}

func comparePod(c *comparer, p PodIntent, rj *jobsetv1alpha2.ReplicatedJob) {
	pod := &rj.Template.Spec.Template
	compareMap(c, "podLabels", "pod label", rj.Name, p.Labels, pod.Labels)
	compareMap(c, "podAnnotations", "pod annotation", rj.Name, p.Annotations, pod.Annotations)
	compareMap(c, "nodeSelector", "nodeSelector", rj.Name, p.NodeSelector, pod.Spec.NodeSelector)
	for _, t := range p.Tolerations {
		got := "none"
		for _, bt := range pod.Spec.Tolerations {
			if equality.Semantic.DeepEqual(t, bt) {
				got = compactJSON(bt)
			}
		}
		c.compare("tolerations", "toleration", rj.Name, compactJSON(t), got)
	}
	if p.ServiceAccountName != nil {
		c.compare("serviceAccountName", "serviceAccountName", rj.Name, *p.ServiceAccountName, pod.Spec.ServiceAccountName)
	}
	container := containerOf(rj)
	for _, m := range p.Mounts {
		got := "none"
		for _, bm := range container.VolumeMounts {
			if bm.MountPath == m.Path {
				got = describeMount(bm.Name, bm.ReadOnly, bm.SubPath)
			}
		}
		c.compare("mounts", "mount "+m.Path, rj.Name, describeMount(m.Volume.Name, m.ReadOnly, m.SubPath), got)
		if reflect.DeepEqual(m.Volume.VolumeSource, corev1.VolumeSource{}) {
			continue
		}
		gotVolume := "none"
		for _, v := range pod.Spec.Volumes {
			if v.Name == m.Volume.Name {
				gotVolume = compactJSON(v)
			}
		}
		c.compare("mounts", "volume "+m.Volume.Name, rj.Name, compactJSON(m.Volume), gotVolume)
	}
}

func describeMount(volume string, readOnly bool, subPath string) string {
	s := "volume " + volume
	if readOnly {
		s += " read-only"
	}
	if subPath != "" {
		s += " subPath " + subPath
	}
	return s
}

func compareMap(c *comparer, kind, what, rj string, asked, built map[string]string) {
	keys := make([]string, 0, len(asked))
	for k := range asked {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		got, ok := built[k]
		if !ok {
			got = "none"
		} else {
			got = strconv.Quote(got)
		}
		c.compare(kind, fmt.Sprintf("%s %s", what, k), rj, strconv.Quote(asked[k]), got)
	}
}

func quoted(list []string) string {
	if list == nil {
		return "none"
	}
	return compactJSON(list)
}

func ptrInt(p *int32, fallback int32) int32 {
	if p == nil {
		return fallback
	}
	return *p
}

func ptrBool(p *bool) bool { return p != nil && *p }
