/**
 * The checks #21's inventory named as gaps, now rules: the WorkspaceKind webhook's filter rules,
 * selectors and Go templates (kubeflow/notebooks 8b61057 workspacekind_webhook.go), Kueue's slice
 * size against its podset (kueue v0.15.2 tas_validation.go ValidateSliceSizeAnnotationUpperBound),
 * an awsElasticBlockStore partition (k8s.io/kubernetes v1.34.4 validateAWSElasticBlockStoreVolumeSource)
 * and the KAI topology annotations lint now reads. Each is shown with one message through the
 * constructs (at synth, naming the prop) and through `lint`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  ActivityProbe, DistributedPyTorch, FilterRule, FilterScope, Topology, WorkspaceKind, WorkspaceKindProps,
} from '../../src';
import { describe as describeFinding } from '../../src/rules/finding';
import { kubernetesFindings } from '../../src/rules/kubernetes';
import { goTemplateProblem } from '../../src/rules/notebooks/go-template';
import { appFindings } from '../../src/rules/rule-sets';
import { STATIC_PYTORCH, stream } from '../cli/broken-documents';
import { lintFindings } from '../cli/run-cli';
import { REPORT, expectValidManifests, synthErrors } from '../harness';
import { HOME_MOUNT_TAKEN } from '../harness/messages';
import { JUPYTERLAB_KIND, SCIPY_IMAGE } from '../harness/notebook-fixtures';

const IMAGE = 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime';

const kindWith = (props: Partial<WorkspaceKindProps>, change?: (k: WorkspaceKind) => void) => (c: Chart) => {
  const k = new WorkspaceKind(c, 'kind', { ...JUPYTERLAB_KIND, ...props });
  k.addImageConfig('scipy', SCIPY_IMAGE);
  k.addPodConfig('small', {});
  change?.(k);
  return k;
};
const lintOf = (build: (c: Chart) => { apiObject: { toJson(): any } }) => lintFindings(stream(build(new Chart(Testing.app(), 'test')).apiObject.toJson()));
/** The manifests `build` writes, synthesized and validated strictly against the pinned CRDs. */
const valid = (build: (c: Chart) => unknown) => {
  const chart = new Chart(Testing.app(), 'test');
  build(chart);
  expect(expectValidManifests(Testing.synth(chart))).toBeGreaterThan(0);
};

describe('notebooks/filter-rules and the selectors of filter and activity rules (validateFilterRules, validateActivityRules)', () => {
  const imageRule = (extra: Partial<FilterRule>): FilterRule => ({ scope: FilterScope.IMAGE_CONFIG, imageConfigSelector: { matchLabels: { tier: 'gpu' } }, ...extra });

  test('a rule whose effects are all false filters nothing', () => {
    const build = kindWith({ filterRules: [imageRule({ hideInUi: false, hideInApi: false })] });
    const allowed = 'expected at least one effect set to true: ui.hide, api.hide or api.deny (a rule with none filters nothing, and the webhook refuses it)';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.filterRules[0].effect (filterRules) is {"api":{"hide":false},"ui":{"hide":false}}; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/filter-rules spec.filterRules[0].effect is {"api":{"hide":false},"ui":{"hide":false}}; ${allowed}`]);
    valid(kindWith({ filterRules: [imageRule({ hideInUi: false, deny: true })] }));
    expect(lintOf(kindWith({ filterRules: [imageRule({ hideInUi: false, deny: true })] }))).toEqual([]);
  });

  test('an option selector on a rule scoped to the kind itself', () => {
    const build = kindWith({ filterRules: [{ scope: FilterScope.WORKSPACE_KIND, podConfigSelector: { matchLabels: { size: 'large' } }, hideInUi: true }] });
    const allowed = 'expected matchNamespace only, or the scope "IMAGE_CONFIG" or "POD_CONFIG": a rule scoped to "WORKSPACE_KIND" filters the kind, which has no pod-config option to match';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.filterRules[0].match[0].matchPodConfig (filterRules) is {"selector":{"matchLabels":{"size":"large"}}}; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/filter-rules spec.filterRules[0].match[0].matchPodConfig is {"selector":{"matchLabels":{"size":"large"}}}; ${allowed}`]);
    const byNamespace = kindWith({ filterRules: [{ scope: FilterScope.WORKSPACE_KIND, namespaceSelector: { matchLabels: { team: 'ml' } }, hideInUi: true }] });
    valid(byNamespace);
    expect(lintOf(byNamespace)).toEqual([]);
  });

  test('a filter rule\'s selector the API machinery refuses (kubernetes/label-selector)', () => {
    const build = kindWith({ filterRules: [imageRule({ imageConfigSelector: { matchExpressions: [{ key: 'tier', operator: 'In' }] }, deny: true })] });
    const at = 'spec.filterRules[0].match[0].matchImageConfig.selector.matchExpressions[0].values';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] ${at} (filterRules) is not set; expected at least one value when operator is "In"`);
    expect(lintOf(build)).toEqual([`kubernetes/label-selector ${at} is not set; expected at least one value when operator is "In"`]);
  });

  test('an activity rule\'s selector the API machinery refuses (kubernetes/label-selector)', () => {
    const probe = ActivityProbe.jupyter('jupyterlab');
    const build = kindWith({
      activityProbe: probe,
      activityRules: [{ inactiveFor: Duration.hours(4), namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists', values: ['ml'] }] } }, { inactiveFor: Duration.hours(8) }],
    });
    const at = 'spec.activityRules[0].match.matchNamespace.selector.matchExpressions[0].values';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] ${at} (activityRules) is ["ml"]; expected no values when operator is "Exists"`);
    expect(lintOf(build)).toEqual([`kubernetes/label-selector ${at} is ["ml"]; expected no values when operator is "Exists"`]);
    const fine = kindWith({ activityProbe: probe, activityRules: [{ inactiveFor: Duration.hours(4), namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] } }] });
    valid(fine);
    expect(lintOf(fine)).toEqual([]);
  });
});

describe('notebooks/workspace-kind-template: extraEnv values and request headers the controller renders as Go templates', () => {
  const PREFIX = 'expected a Go template the controller can render (its functions are Go\'s built-ins and httpPathPrefix "<port id>", with no data): ';

  test('an env value that does not parse, through the env prop and in lint', () => {
    const build = kindWith({ env: { NB_PREFIX: kplus.EnvValue.fromValue('{{ WorkspaceKind.httpPathPrefix "jupyterlab" }}') } });
    const value = '"{{ WorkspaceKind.httpPathPrefix \\"jupyterlab\\" }}"';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.podTemplate.extraEnv[NB_PREFIX].value (env) is ${value}; ${PREFIX}function "WorkspaceKind" not defined`);
    expect(lintOf(build)).toEqual([`notebooks/workspace-kind-template spec.podTemplate.extraEnv[NB_PREFIX].value is ${value}; ${PREFIX}function "WorkspaceKind" not defined`]);
    const fine = kindWith({ env: { NB_PREFIX: kplus.EnvValue.fromValue(WorkspaceKind.httpPathPrefix('jupyterlab')) } });
    valid(fine);
    expect(lintOf(fine)).toEqual([]);
  });

  test('a request header whose httpPathPrefix gets no port id, through the ports prop and in lint', () => {
    const build = kindWith({ ports: [{ id: 'jupyterlab', displayName: 'JupyterLab', setRequestHeaders: { 'X-Prefix': '{{ httpPathPrefix }}' } }] });
    const at = 'spec.podTemplate.ports[0].httpProxy.requestHeaders.set["X-Prefix"]';
    const allowed = `${PREFIX}wrong number of args for httpPathPrefix: want 1 (a port id) got 0`;
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] ${at} (ports) is "{{ httpPathPrefix }}"; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/workspace-kind-template ${at} is "{{ httpPathPrefix }}"; ${allowed}`]);
    const added = kindWith({ ports: [{ id: 'jupyterlab', displayName: 'JupyterLab', addRequestHeaders: { 'X-Prefix': '{{ "jupyterlab" | httpPathPrefix }}' } }] });
    expect(lintOf(added)).toEqual(['notebooks/workspace-kind-template spec.podTemplate.ports[0].httpProxy.requestHeaders.add["X-Prefix"] is "{{ \\"jupyterlab\\" | httpPathPrefix }}"; '
      + `${PREFIX}httpPathPrefix takes a port id written as a quoted string, given a piped value`]);
  });

  // The templates and what the rule says of each, shared with conformance/corpus TestGoTemplates,
  // which renders each with Go's text/template as the controller does (the controller's function,
  // no data) and fails when Go refuses one the rule passes, or the reverse; the rows marked
  // leftToGo are what only running Go refuses (a branch, a built-in on a value), passed here and
  // named in the inventory row notebooks/workspacekind/template-execution-on-branches.
  const CASES: ReadonlyArray<{ template: string; problem: string | null; leftToGo?: boolean }> =
    JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'conformance', 'testdata', 'go-templates.json'), 'utf8')).cases;

  test('the shared table holds accepted, refused and left-to-Go templates', () => {
    expect(CASES.filter(c => c.problem === null && !c.leftToGo).length).toBeGreaterThan(10);
    expect(CASES.filter(c => c.problem !== null).length).toBeGreaterThan(25);
    expect(CASES.filter(c => c.leftToGo).length).toBeGreaterThan(3);
  });

  test.each(CASES.map(c => [c.template, c.problem] as const))('%j: %s', (template, problem) => {
    expect(goTemplateProblem(template) ?? null).toBe(problem);
  });
});

describe('kueue/slice-size: a slice no larger than its podset (ValidateSliceSizeAnnotationUpperBound)', () => {
  const level = 'cloud.provider.com/topology-block';

  test('a v1 job: the slice against the replica type\'s replicas, through the topology prop and in lint', () => {
    const sliced = (size: number) => ({ topology: Topology.required(level, { slices: { level, size } }) });
    const build = (c: Chart) => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, queue: 'gpu', workers: 3, worker: sliced(4) });
    const at = 'spec.pytorchReplicaSpecs.Worker.template.metadata.annotations["kueue.x-k8s.io/podset-slice-size"]';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/res] ${at} is "4"; expected at most 3, the Worker replicas (3 pods): Kueue refuses a slice larger than its podset`);
    const doc = build(new Chart(Testing.app(), 'test')).apiObject.toJson();
    expect(lintFindings(stream(doc))).toEqual([`kueue/slice-size ${at} is "4"; expected at most 3, the Worker replicas (3 pods): Kueue refuses a slice larger than its podset`]);
    valid(c => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, queue: 'gpu', workers: 3, worker: sliced(3) }));
    // A topology for the whole job slices the Master's single pod too: Kueue refuses that podset.
    const whole = (c: Chart) => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, queue: 'gpu', workers: 2, ...sliced(2) });
    expect(synthErrors(whole)).toBe(`${REPORT}  [test/res] spec.pytorchReplicaSpecs.Master.template.metadata.annotations["kueue.x-k8s.io/podset-slice-size"] is "2"; `
      + 'expected at most 1, the Master replicas (1 pod): Kueue refuses a slice larger than its podset');
  });

  test('a replica type without replicas counts 1 pod; kinds Kueue does not manage are not judged', () => {
    const d = STATIC_PYTORCH();
    delete d.spec.pytorchReplicaSpecs.Master.replicas;
    d.spec.pytorchReplicaSpecs.Master.template.metadata = { annotations: { 'kueue.x-k8s.io/podset-slice-required-topology': level, 'kueue.x-k8s.io/podset-slice-size': '2' } };
    expect(lintFindings(stream(d)).filter(f => f.startsWith('kueue/'))).toEqual([
      'kueue/slice-size spec.pytorchReplicaSpecs.Master.template.metadata.annotations["kueue.x-k8s.io/podset-slice-size"] is "2"; expected at most 1, the Master replicas (1 pod): Kueue refuses a slice larger than its podset',
    ]);
  });

  test('a TrainJob: each replicated job of the JobSet it builds, the runtime\'s annotation or a runtime patch\'s', () => {
    const API = 'trainer.kubeflow.org/v1alpha1';
    const sliced = (size: string) => ({ annotations: { 'kueue.x-k8s.io/podset-slice-required-topology': level, 'kueue.x-k8s.io/podset-slice-size': size } });
    const runtime = {
      apiVersion: API,
      kind: 'ClusterTrainingRuntime',
      metadata: { name: 'rt' },
      spec: {
        mlPolicy: { numNodes: 2, torch: {} },
        template: { spec: { replicatedJobs: [{ name: 'node', template: { metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' } }, spec: { template: { metadata: sliced('4'), spec: { containers: [{ name: 'node', image: IMAGE }] } } } } }] } },
      },
    };
    const job = (spec: any) => ({ apiVersion: API, kind: 'TrainJob', metadata: { name: 'job', namespace: 'ml' }, spec: { runtimeRef: { name: 'rt' }, ...spec } });
    const appRules = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc }))).map(f => `${f.path} ${f.finding.rule} ${describeFinding(f.finding)}`);
    const KUEUE = 'and Kueue refuses a slice larger than its podset';
    // The runtime's 2 nodes are fewer than its slice of 4; 4 nodes from the job fit it.
    expect(appRules(runtime, job({}))).toEqual([
      `chart/1 kueue/slice-size spec.runtimeRef.name is "\\"rt\\""; expected a kueue.x-k8s.io/podset-slice-size of at most 2: the "node" job of the JobSet built for this TrainJob has 2 pods, ${KUEUE} (the slice size 4 comes from the runtime "rt")`,
    ]);
    expect(appRules(runtime, job({ trainer: { numNodes: 4 } }))).toEqual([]);
    const patched = job({
      trainer: { numNodes: 4 },
      runtimePatches: [{ manager: 'example.com/team', trainingRuntimeSpec: { template: { spec: { replicatedJobs: [{ name: 'node', template: { spec: { template: { metadata: sliced('8') } } } }] } } } }],
    });
    expect(appRules(runtime, patched)).toEqual([
      'chart/1 kueue/slice-size spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations["kueue.x-k8s.io/podset-slice-size"] is "8"; '
      + `expected a kueue.x-k8s.io/podset-slice-size of at most 4: the "node" job of the JobSet built for this TrainJob has 4 pods, ${KUEUE} (the slice size 8 comes from this runtime patch)`,
    ]);
  });
});

describe('the token projection and partition gap: what remained after the Kubernetes rules', () => {
  const podWith = (volume: any) => {
    const d = STATIC_PYTORCH();
    d.spec.pytorchReplicaSpecs.Worker.template.spec.volumes = [{ name: 'data', ...volume }];
    return d;
  };

  test('kubernetes/int-range: an awsElasticBlockStore partition outside 0..255', () => {
    const rules = (partition: number) => kubernetesFindings(podWith({ awsElasticBlockStore: { volumeID: 'vol-1', partition } })).map(f => `${f.rule} ${describeFinding(f)}`);
    expect(rules(-1)).toEqual(['kubernetes/int-range spec.pytorchReplicaSpecs.Worker.template.spec.volumes[data].awsElasticBlockStore.partition is -1; expected a whole number from 0 to 255']);
    expect(rules(256)).toEqual(['kubernetes/int-range spec.pytorchReplicaSpecs.Worker.template.spec.volumes[data].awsElasticBlockStore.partition is 256; expected a whole number from 0 to 255']);
    expect(rules(0)).toEqual([]);
    expect(rules(255)).toEqual([]);
  });

  test('a serviceAccountToken projection: the lifetime and path rules, and no service account needed (admission names "default")', () => {
    const token = (t: any) => kubernetesFindings(podWith({ projected: { sources: [{ serviceAccountToken: { path: 'token', ...t } }] } })).map(f => `${f.rule} ${describeFinding(f)}`);
    const at = 'spec.pytorchReplicaSpecs.Worker.template.spec.volumes[data].projected.sources[0].serviceAccountToken';
    expect(token({ expirationSeconds: 599 })).toEqual([`kubernetes/int-range ${at}.expirationSeconds is 599; expected a whole number from 600 to 9223372036854775807`]);
    expect(token({ expirationSeconds: 2 ** 32 + 1 })).toEqual([`kubernetes/volume-items ${at}.expirationSeconds is 4294967297; expected at most 4294967296 seconds (2^32)`]);
    expect(token({ expirationSeconds: 600, audience: 'vault' })).toEqual([]);
    expect(token({ path: '../token' })).toEqual([`kubernetes/volume-items ${at}.path is "../token"; expected a relative file path inside the volume, without ".." and not starting with ".."`]);
  });
});

describe('library/kai-topology: the KAI scheduler\'s annotations on the job, now read by lint', () => {
  test('a Topology name and a level that can name nothing', () => {
    const build = (c: Chart) => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2, topology: Topology.kai({ topologyName: 'Rack_Topology', requiredLevel: 'rack' }) });
    expect(() => build(new Chart(Testing.app(), 'test'))).toThrow('test/res: topology.topologyName is "Rack_Topology"; expected the name of the cluster\'s Topology object (a DNS-1123 subdomain)');
    const d = STATIC_PYTORCH();
    d.metadata.annotations = { 'kai.scheduler/topology': 'Rack_Topology', 'kai.scheduler/topology-preferred-placement': 'rack block' };
    expect(lintFindings(stream(d))).toEqual([
      'library/kai-topology metadata.annotations["kai.scheduler/topology"] is "Rack_Topology"; expected the name of the cluster\'s Topology object, a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit',
      'library/kai-topology metadata.annotations["kai.scheduler/topology-preferred-placement"] is "rack block"; expected a node label key such as "cloud.provider.com/topology-block": an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit',
    ]);
    // A topology without a level is legal for KAI: lint accepts it; only the construct, asked for placement, refuses it.
    d.metadata.annotations = { 'kai.scheduler/topology': 'rack-topology' };
    expect(lintFindings(stream(d))).toEqual([]);
    valid(c => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2, topology: Topology.kai({ topologyName: 'rack-topology', requiredLevel: 'rack' }) }));
  });
});

describe('relative mount paths through props: refused only where the CRD refuses them (#21, kubernetes/mount-path no longer refuses them)', () => {
  test('a WorkspaceKind\'s extra mount keeps a relative path, which the kubelet mounts under "/"', () => {
    const build = kindWith({}, k => k.mount('cache', kplus.Volume.fromEmptyDir(k, 'cache', 'cache')));
    const kind = build(new Chart(Testing.app(), 'test')).apiObject.toJson();
    expect(kind.spec.podTemplate.extraVolumeMounts).toEqual([{ name: 'cache', mountPath: 'cache' }]);
    valid(build);
    expect(lintOf(build)).toEqual([]);
    // "home/jovyan" lands on the home path as the kubelet mounts it: the controller's home mount wins.
    const onHome = kindWith({}, k => k.mount('home/jovyan', kplus.Volume.fromEmptyDir(k, 'cache', 'cache')));
    expect(lintOf(onHome)).toEqual([`notebooks/home-mount spec.podTemplate.extraVolumeMounts[0].mountPath is "home/jovyan"; ${HOME_MOUNT_TAKEN}`]);
  });

  test('trainer/ssh-auth-mount-path: an MPI runtime\'s SSH key path may be relative (mounted under "/"), not empty', () => {
    const runtime = (sshAuthMountPath: string) => ({
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'ClusterTrainingRuntime',
      metadata: { name: 'mpi' },
      spec: { mlPolicy: { numNodes: 2, mpi: { sshAuthMountPath } }, template: { spec: { replicatedJobs: [] } } },
    });
    const ssh = (sshPath: string) => kubernetesFindings(runtime(sshPath)).filter(f => f.rule === 'trainer/ssh-auth-mount-path').map(describeFinding);
    expect(ssh('.ssh')).toEqual([]);
    expect(ssh('')).toEqual(['spec.mlPolicy.mpi.sshAuthMountPath is ""; expected a directory for the SSH keys such as /home/mpiuser/.ssh (the Trainer mounts them there, and Kubernetes refuses an empty mount path)']);
  });

  test('a home path the WorkspaceKind CRD\'s pattern refuses is refused at once, as the API server would', () => {
    expect(() => kindWith({ homeMountPath: 'home/jovyan' })(new Chart(Testing.app(), 'test')))
      .toThrow('test/kind: homeMountPath is "home/jovyan"; expected an absolute path such as "/data" (2 to 4096 characters, without ":"), as the Notebooks CRD requires');
    // The same path written into the YAML is what library/schema refuses.
    const doc = kindWith({})(new Chart(Testing.app(), 'test')).apiObject.toJson();
    doc.spec.podTemplate.volumeMounts.home = 'home/jovyan';
    expect(lintFindings(stream(doc))).toEqual([expect.stringMatching(/^library\/schema spec\.podTemplate\.volumeMounts\.home is "home\/jovyan"; /)]);
  });
});

describe('families the rotated leaf fuzz found (seeds 20261202 to 20261205 and 7): rules where upstream refuses, none where it accepts', () => {
  const worker = (d: any) => d.spec.pytorchReplicaSpecs.Worker.template;
  const k8s = (d: any) => kubernetesFindings(d).map(f => `${f.rule} ${describeFinding(f)}`);
  const W = 'spec.pytorchReplicaSpecs.Worker.template';

  test('kubernetes/runtime-class-name: an empty runtimeClassName is a set one, which names no RuntimeClass', () => {
    const d = STATIC_PYTORCH();
    worker(d).spec.runtimeClassName = '';
    expect(k8s(d)).toEqual([`kubernetes/runtime-class-name ${W}.spec.runtimeClassName is ""; expected a runtime class name (or none): a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit`]);
  });

  test('kubernetes/finalizer: a pod template\'s finalizers, which every pod copies (ValidatePodCreate)', () => {
    const d = STATIC_PYTORCH();
    worker(d).metadata = { finalizers: ['', 'cleanup', 'example.com/cleanup', 'foregroundDeletion'] };
    expect(k8s(d)).toEqual([
      `kubernetes/finalizer ${W}.metadata.finalizers[0] is ""; expected a finalizer name: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit`,
      `kubernetes/finalizer ${W}.metadata.finalizers[1] is "cleanup"; expected a finalizer with a domain prefix such as "example.com/cleanup" (only "kubernetes", "orphan" and "foregroundDeletion" go without one): the pods copy it, and Kubernetes refuses them`,
    ]);
  });

  test('kubernetes/volume-fields: a CSI volume\'s node publish Secret; kubernetes/volume-source: a volume without a type is an emptyDir', () => {
    const d = STATIC_PYTORCH();
    worker(d).spec.volumes = [{ name: 'creds', csi: { driver: 'secrets-store.csi.k8s.io', nodePublishSecretRef: { name: '' } } }, { name: 'scratch' }];
    expect(k8s(d)).toEqual([`kubernetes/volume-fields ${W}.spec.volumes[creds].csi.nodePublishSecretRef.name is ""; expected the name of the Secret the CSI driver is given: a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit`]);
  });

  test('training-operator/pod-restart-policy: an empty pod policy is an unset one, which the operator fills', () => {
    const d = STATIC_PYTORCH();
    worker(d).spec.restartPolicy = '';
    expect(lintFindings(stream(d))).toEqual([]);
  });

  test('trainer/runtime-ref-kind: a runtime kind or group the Trainer webhook does not know', () => {
    const job = { apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob', metadata: { name: 'job', namespace: 'ml' }, spec: { runtimeRef: { name: 'torch-distributed', kind: '', apiGroup: 'kubeflow.org' } } };
    expect(lintFindings(stream(job)).filter(f => f.startsWith('trainer/runtime-ref-kind'))).toEqual([
      'trainer/runtime-ref-kind spec.runtimeRef.kind is ""; expected "ClusterTrainingRuntime" or "TrainingRuntime" (or none, for a ClusterTrainingRuntime): the Trainer webhook refuses any other kind as an unsupported runtime',
      'trainer/runtime-ref-kind spec.runtimeRef.apiGroup is "kubeflow.org"; expected "trainer.kubeflow.org" (or none): the Trainer webhook refuses a runtime of another group as unsupported',
    ]);
  });

  test('a WorkspaceKind\'s pod security fields and pod-config claims, judged as the pod the controller builds', () => {
    const doc = kindWith({})(new Chart(Testing.app(), 'test')).apiObject.toJson();
    const t = doc.spec.podTemplate;
    t.securityContext = { ...t.securityContext, fsGroupChangePolicy: '', sysctls: [{ name: '', value: '1' }], windowsOptions: { gmsaCredentialSpec: '' } };
    t.containerSecurityContext = { ...t.containerSecurityContext, windowsOptions: { hostProcess: true } };
    t.options.podConfig.values[0].spec.resources = { claims: [{ name: 'gpu' }] };
    expect(k8s(doc)).toEqual([
      'kubernetes/sysctl spec.podTemplate.securityContext.sysctls[0].name is ""; expected a sysctl name such as net.core.somaxconn: at most 253 lower-case letters, digits, "-" or "_", in parts joined by "." or "/"',
      'kubernetes/security-policy spec.podTemplate.securityContext.fsGroupChangePolicy is ""; expected "OnRootMismatch" or "Always"',
      'kubernetes/windows-options spec.podTemplate.securityContext.windowsOptions.gmsaCredentialSpec is ""; expected a credential spec of 1 byte to 64 KiB',
      'kubernetes/windows-options spec.podTemplate.containerSecurityContext.windowsOptions.hostProcess is true; expected false or none: a host process container needs hostNetwork, which the pods of a WorkspaceKind do not have',
      'kubernetes/resource-claims spec.podTemplate.options.podConfig.values[0].spec.resources.claims[0].name is "gpu"; expected the name of a claim in the pod\'s resourceClaims (the pod has none)',
    ]);
  });
});
