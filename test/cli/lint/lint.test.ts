import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES, UPSTREAM_EXAMPLES_V2 } from '../../../scripts/upstream/pins';
import { inputFiles } from '../../../src/cli/base/input';
import { internalError } from '../../../src/cli/main';
import { LINT_RULES } from '../../../src/cli/rules/rules';
import { KUBERNETES_RULE_SET } from '../../../src/rules/kubernetes/rule-set';
import { NOTEBOOKS_RULE_SET } from '../../../src/rules/notebooks/rule-set';
import { RULE_SETS } from '../../../src/rules/rule-sets';
import { TRAINING_OPERATOR_RULE_SET } from '../../../src/rules/training-operator/rule-set';
import { INJECTED_ENV, LABEL_VALUE, PINNED_CRD_FIELDS } from '../../harness/messages';
import { synthesizeExamples } from '../examples-output';
import { CASES, TOO_DEEP, VALID } from '../lint-cases';
import { lintFindings, runCli } from '../run-cli';

/** The operators' rules of one document and of one input (before issue 40, the kubeflow/ rules). */
const KUBEFLOW_RULES = [...TRAINING_OPERATOR_RULE_SET.rules, ...NOTEBOOKS_RULE_SET.rules].filter(r => r.id !== 'training-operator/pod-name-collision');

const lines = (text: string) => text.split('\n').filter(l => l !== '');

/** What `lint -` prints for each broken input of lint-cases.ts: findings, then the summary. */
const EXPECTED: Array<[string, string[]]> = [
  ['training-operator/replica-type', [
    '<stdin>:8:5: TFJob ml/train: spec.tfReplicaSpecs.Workers is "Workers"; expected a replica type of TFJob: "Chief", "Master", "PS", "Worker", "Evaluator" (spelled exactly) [training-operator/replica-type]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/replica-count (XGBoost Master)', [
    '<stdin>:9:7: XGBoostJob ml/train: spec.xgbReplicaSpecs.Master.replicas is 2; expected 1; the operator rejects an XGBoostJob whose Master does not have one replica [training-operator/replica-count]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/replica-count (MPI Launcher)', [
    '<stdin>:7:3: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher is not set; expected a Launcher with replicas: 1; an MPIJob has exactly one launcher (the controller refuses it otherwise, with only a warning event) [training-operator/replica-count]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/replica-count (PyTorch Master without replicas)', [
    '<stdin>:8:5: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.replicas is not set; expected 1; a PyTorchJob has one Master, written with replicas: 1, which the operator makes rank 0 [training-operator/replica-count]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/replica-count (TF Chief and Master)', [
    '<stdin>:15:5: TFJob ml/train: spec.tfReplicaSpecs.Master is {"replicas":1,"template":{"spec":{"containers":[{"name":"tensorflow","image":"tf"}]}}}; expected no Master together with a Chief: a TFJob has at most one Chief or Master [training-operator/replica-count]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/replica-count (JAX without workers)', [
    '<stdin>:9:7: JAXJob ml/train: spec.jaxReplicaSpecs.Worker.replicas is 0; expected at least 1 Worker: worker 0 is the JAX coordinator [training-operator/replica-count]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/pytorch-master (elastic)', [
    '<stdin>:11:5: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master is {"replicas":1,"template":{"spec":{"containers":[{"name":"pytorch","image":"registry.example/train:1.0"}]}}}; expected no Master in an elastic job (elasticPolicy): its Workers find each other through the rendezvous backend, and a Master gets contradictory environment [training-operator/pytorch-master]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/pytorch-master (static)', [
    '<stdin>:7:3: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master is not set; expected a Master in a job without elasticPolicy: the operator sets RANK and WORLD_SIZE only when one exists [training-operator/pytorch-master]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/framework-container', [
    '<stdin>:19:11: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers is ["trainer"]; expected a container named "pytorch": the operator looks for it to add its port and environment [training-operator/framework-container]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/framework-container (MXJob)', [
    '<stdin>:13:11: MXJob ml/train: spec.mxReplicaSpecs.Scheduler.template.spec.containers is ["mx"]; expected a container named "mxnet": the operator looks for it to add its port and environment [training-operator/framework-container]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/mpi-main-container', [
    '<stdin>:20:11: MPIJob ml/train: spec.mpiReplicaSpecs.Worker.template.spec.containers is ["mpi"]; expected a container named "worker", as spec.mainContainer says: the launcher execs the MPI processes into it [training-operator/mpi-main-container]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/pod-name-length', [
    '<stdin>:4:3: PyTorchJob ml/resnet50-imagenet-full-precision-sweep-learning-rate-0001: metadata.name is "resnet50-imagenet-full-precision-sweep-learning-rate-0001"; expected a name of at most 53 characters, so that the pod and service name "resnet50-imagenet-full-precision-sweep-learning-rate-0001-worker-11" fits in 63 [training-operator/pod-name-length]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/pod-name-length (elastic, counted to maxReplicas)', [
    '<stdin>:4:3: PyTorchJob ml/llama-70b-sft-elastic-rendezvous-c10d-nodes-sweep-0001: metadata.name is "llama-70b-sft-elastic-rendezvous-c10d-nodes-sweep-0001"; expected a name of at most 53 characters, so that the pod and service name "llama-70b-sft-elastic-rendezvous-c10d-nodes-sweep-0001-worker-99" fits in 63 [training-operator/pod-name-length]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/injected-env', [
    `<stdin>:23:19: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE] is {"name":"WORLD_SIZE","value":"3"}; ${INJECTED_ENV} [training-operator/injected-env]`,
    '1 document checked; 1 finding',
  ]],
  ['training-operator/mpi-launcher-gpu-env', [
    '<stdin>:17:19: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].env[NVIDIA_VISIBLE_DEVICES] is {"name":"NVIDIA_VISIBLE_DEVICES","value":"all"}; expected a variable the operator does not set itself; it sets this one to "" in a launcher without GPUs, so a user value would be lost [training-operator/mpi-launcher-gpu-env]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/reserved-names (MPI launcher)', [
    '<stdin>:14:15: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher.template.spec.initContainers[kubectl-delivery].name is "kubectl-delivery"; expected a container name the operator does not use: it adds its own "kubectl-delivery" init container to every launcher pod, and the API server refuses a pod with two containers of one name [training-operator/reserved-names]',
    '<stdin>:19:15: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher.template.spec.volumes[mpi-job-config].name is "mpi-job-config"; expected a volume name the operator does not use: it adds its own "mpi-job-config" volume to every launcher pod, and the API server refuses a pod with two volumes of one name [training-operator/reserved-names]',
    '<stdin>:26:19: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].volumeMounts[0].mountPath is "/etc/mpi"; expected a mount path the operator does not use in the first container: it mounts its own volume at "/etc/mpi" there in every launcher pod, and the API server refuses a pod with two mounts at one path [training-operator/reserved-names]',
    '1 document checked; 3 findings',
  ]],
  ['training-operator/reserved-names (PyTorch worker)', [
    '<stdin>:23:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.initContainers[init-pytorch].name is "init-pytorch"; expected a container name the operator does not use: it adds its own "init-pytorch" init container to every worker pod of a job with a Master, and the API server refuses a pod with two containers of one name [training-operator/reserved-names]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/service-ports (an unnamed port beside a named one)', [
    '<stdin>:18:19: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].ports[1] is {"containerPort":8080}; expected a name on every port of the "pytorch" container when it has several: the operator copies them onto the headless Service of each pod, and the API server refuses a Service port without a name beside others [training-operator/service-ports]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/service-ports (one unnamed port, beside the port the operator adds)', [
    '<stdin>:16:19: JAXJob ml/train: spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].ports[0] is {"containerPort":8080}; expected a name on every port of the "jax" container when it has several (with the "jaxjob-port" port 6666 the operator adds when no port has that name): the operator copies them onto the headless Service of each pod, and the API server refuses a Service port without a name beside others [training-operator/service-ports]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/service-ports (the added port\'s number under another name)', [
    '<stdin>:17:19: JAXJob ml/train: spec.jaxReplicaSpecs.Worker.template.spec.containers[jax].ports[0].containerPort is 6666; expected a port number no other port of the "jax" container has (with the "jaxjob-port" port 6666 the operator adds when no port has that name): the operator copies them onto the headless Service of each pod, all as TCP, and the API server refuses a Service with one port twice [training-operator/service-ports]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/service-ports (one number twice)', [
    '<stdin>:19:19: TFJob ml/train: spec.tfReplicaSpecs.Worker.template.spec.containers[tensorflow].ports[1].containerPort is 2222; expected a port number no other port of the "tensorflow" container has: the operator copies them onto the headless Service of each pod, all as TCP, and the API server refuses a Service with one port twice [training-operator/service-ports]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/mpi-np', [
    '<stdin>:17:15: MPIJob ml/train: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].command is "-np 8"; expected at most 4 processes (2 workers x 2 slotsPerWorker); mpirun cannot start more processes than the hostfile has slots (add --oversubscribe if that is meant) [training-operator/mpi-np]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/elastic-bounds (min above max)', [
    '<stdin>:8:5: PyTorchJob ml/train: spec.elasticPolicy.minReplicas is 4; expected at most spec.elasticPolicy.maxReplicas (2) [training-operator/elastic-bounds]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/elastic-bounds (workers outside)', [
    '<stdin>:12:7: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.replicas is 2; expected at least spec.elasticPolicy.minReplicas (3) [training-operator/elastic-bounds]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/elastic-nproc', [
    '<stdin>:11:5: PyTorchJob ml/train: spec.elasticPolicy.nProcPerNode is 4; expected not set together with spec.nprocPerNode, which replaces it [training-operator/elastic-nproc]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/rdzv-conf', [
    '<stdin>:12:9: PyTorchJob ml/train: spec.elasticPolicy.rdzvConf[0].value is "900,1800"; expected a value without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; torchrun refuses the PET_RDZV_CONF the operator writes, and every worker exits at start [training-operator/rdzv-conf]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/rdzv-endpoint', [
    '<stdin>:11:5: PyTorchJob ml/train: spec.elasticPolicy.rdzvPort is 65536; expected a port of 0 to 65535: the operator passes it to torchrun in PET_RDZV_ENDPOINT, which refuses any other, and every worker exits at start [training-operator/rdzv-endpoint]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/elastic-standalone', [
    '<stdin>:10:5: PyTorchJob ml/train: spec.elasticPolicy.standalone is true; expected false or none: the operator writes PET_STANDALONE="" for it, torchrun reads that variable as a whole number and fails on "", so every worker exits at start; a one-node rendezvous needs no flag (minReplicas and maxReplicas of 1 with the c10d backend) [training-operator/elastic-standalone]',
    '1 document checked; 1 finding',
  ]],
  ['training-operator/operator-pod-labels', [
    '<stdin>:20:13: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.metadata.labels["training.kubeflow.org/replica-type"] is "worker"; expected no "training.kubeflow.org/replica-type" label on the pod template: the operator writes the replica type under this key on every pod it creates, over this value [training-operator/operator-pod-labels]',
    '1 document checked; 1 finding',
  ]],
  ['library/schema', [
    `<stdin>:22:7: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.replica is 2; ${PINNED_CRD_FIELDS} (did you mean "replicas"?) [library/schema]`,
    '1 document checked; 1 finding',
  ]],
  ['k8s (a label value)', [
    `<stdin>:7:5: PyTorchJob ml/train: metadata.labels.team is "vision team"; ${LABEL_VALUE} [kubernetes/label-value]`,
    '1 document checked; 1 finding',
  ]],
  ['kubernetes/duplicate-object', [
    '<stdin>:26:3: PyTorchJob ml/train: metadata.name is "train"; expected a name no other PyTorchJob in namespace "ml" has (<stdin>:1 is also PyTorchJob "train", and one would replace the other) [kubernetes/duplicate-object]',
    '2 documents checked; 1 finding',
  ]],
  ['library/yaml-syntax', [
    '<stdin>:24:1: document is "Flow sequence in block collection must be sufficiently indented and end with a ]"; expected valid YAML [library/yaml-syntax]',
    '1 document checked, 1 not YAML; 1 finding',
  ]],
  ['pod security (namespace enforcing restricted)', [
    '<stdin>:20:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].securityContext.allowPrivilegeEscalation is not set; expected false (Pod Security "restricted") [kubernetes/pss-privilege-escalation]',
    '<stdin>:20:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].securityContext.runAsNonRoot is not set; expected true on the container or the pod (Pod Security "restricted") [kubernetes/pss-run-as-non-root]',
    '<stdin>:20:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].securityContext.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod (Pod Security "restricted") [kubernetes/pss-seccomp]',
    '<stdin>:20:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].securityContext.capabilities.drop is not set; expected a list with "ALL" (Pod Security "restricted") [kubernetes/pss-capabilities]',
    '<stdin>:27:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].securityContext.allowPrivilegeEscalation is not set; expected false (Pod Security "restricted") [kubernetes/pss-privilege-escalation]',
    '<stdin>:27:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].securityContext.runAsNonRoot is not set; expected true on the container or the pod (Pod Security "restricted") [kubernetes/pss-run-as-non-root]',
    '<stdin>:27:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].securityContext.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod (Pod Security "restricted") [kubernetes/pss-seccomp]',
    '<stdin>:27:15: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].securityContext.capabilities.drop is not set; expected a list with "ALL" (Pod Security "restricted") [kubernetes/pss-capabilities]',
    '<stdin>:22:5: PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker is "init-pytorch"; expected an operator whose --pytorch-init-container-template-file gives init-pytorch a restricted security context (namespace "ml" enforces Pod Security "restricted"): the default template has none, so every worker pod is refused [training-operator/restricted-operator-init]',
    '<stdin>:43:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].securityContext.allowPrivilegeEscalation is not set; expected false (Pod Security "restricted") [kubernetes/pss-privilege-escalation]',
    '<stdin>:43:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].securityContext.runAsNonRoot is not set; expected true on the container or the pod (Pod Security "restricted") [kubernetes/pss-run-as-non-root]',
    '<stdin>:43:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].securityContext.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod (Pod Security "restricted") [kubernetes/pss-seccomp]',
    '<stdin>:43:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher.template.spec.containers[mpi].securityContext.capabilities.drop is not set; expected a list with "ALL" (Pod Security "restricted") [kubernetes/pss-capabilities]',
    '<stdin>:50:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Worker.template.spec.containers[mpi].securityContext.allowPrivilegeEscalation is not set; expected false (Pod Security "restricted") [kubernetes/pss-privilege-escalation]',
    '<stdin>:50:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Worker.template.spec.containers[mpi].securityContext.runAsNonRoot is not set; expected true on the container or the pod (Pod Security "restricted") [kubernetes/pss-run-as-non-root]',
    '<stdin>:50:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Worker.template.spec.containers[mpi].securityContext.seccompProfile.type is not set; expected "RuntimeDefault" or "Localhost" on the container or the pod (Pod Security "restricted") [kubernetes/pss-seccomp]',
    '<stdin>:50:15: MPIJob ml/hvd: spec.mpiReplicaSpecs.Worker.template.spec.containers[mpi].securityContext.capabilities.drop is not set; expected a list with "ALL" (Pod Security "restricted") [kubernetes/pss-capabilities]',
    '<stdin>:38:5: MPIJob ml/hvd: spec.mpiReplicaSpecs.Launcher is "kubectl-delivery"; expected a job that can pass (namespace "ml" enforces Pod Security "restricted"): the operator adds the init container "kubectl-delivery" without a security context to every MPIJob v1 launcher; use Trainer v2\'s MPI runtime instead [training-operator/restricted-operator-init]',
    '2 documents checked, 1 skipped (kinds not known: Namespace); 18 findings',
  ]],
];

describe('lint on broken documents, one table row per rule', () => {
  test('the table covers every case', () => {
    expect(EXPECTED.map(([name]) => name)).toEqual(Object.keys(CASES));
  });

  test.each(EXPECTED)('%s', (name, expected) => {
    const result = runCli(['lint', '-'], CASES[name]);
    expect(lines(result.stdout)).toEqual(expected);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
  });
});

describe('lint on valid documents close to a rule', () => {
  test.each(Object.keys(VALID))('%s', name => {
    const result = runCli(['lint', '-'], VALID[name]);
    expect(lines(result.stdout)).toEqual([expect.stringMatching(/^1 document checked(, 1 skipped \(kinds not known: Namespace\))?; no findings$/)]);
    expect(result.status).toBe(0);
  });
});

describe('lint on the project examples', () => {
  const outdir = synthesizeExamples();
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));
  const platform = () => yaml.loadAll(fs.readFileSync(path.join(outdir, 'notebooks-platform.k8s.yaml'), 'utf8')) as any[];
  const kindOf = (docs: any[]) => docs.find(d => d.kind === 'WorkspaceKind');
  const lintDocs = (docs: any[]) => runCli(['lint', '-'], docs.map(d => yaml.dump(d, { lineWidth: -1 })).join('---\n'));

  test('every manifest passes', () => {
    const result = runCli(['lint', outdir]);
    expect(result.stdout).toBe('47 documents checked, 5 skipped (kinds not known: ConfigMap, PersistentVolumeClaim); no findings\n');
    expect(result.status).toBe(0);
  });

  test('a repeated option id is the schema\'s (list-map key), reported once', () => {
    const docs = platform();
    const images = kindOf(docs).spec.podTemplate.options.imageConfig.values;
    images.push({ ...images[0] });
    const found = lines(lintDocs(docs).stdout);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^<stdin>:66:13: WorkspaceKind jupyterlab: spec\.podTemplate\.options\.imageConfig\.values\[2\] is .*; expected entries with distinct id "jupyter-scipy:v1\.10\.0" \(the same as the entry at index 0\) \[library\/schema\]$/);
    expect(found[1]).toBe('1 document checked; 1 finding');
  });

  test('notebooks/option-default: a default that is not an option', () => {
    const docs = platform();
    kindOf(docs).spec.podTemplate.options.podConfig.spawner.default = 'tiny';
    expect(lines(lintDocs(docs).stdout)).toEqual([
      '<stdin>:68:11: WorkspaceKind jupyterlab: spec.podTemplate.options.podConfig.spawner.default is "tiny"; expected the id of an option: "cpu", "gpu" [notebooks/option-default]',
      '1 document checked; 1 finding',
    ]);
  });

  test('notebooks/option-redirect: a cycle, and the default redirected', () => {
    const docs = platform();
    const [cpu, gpu] = kindOf(docs).spec.podTemplate.options.podConfig.values;
    cpu.redirect = { to: 'gpu' };
    gpu.redirect = { to: 'cpu' };
    expect(lines(lintDocs(docs).stdout)).toEqual([
      '<stdin>:69:9: WorkspaceKind jupyterlab: spec.podTemplate.options.podConfig.values[cpu].redirect.to is "gpu"; expected redirects that end at an option without one, but cpu -> gpu -> cpu is a cycle [notebooks/option-redirect]',
      '<stdin>:68:11: WorkspaceKind jupyterlab: spec.podTemplate.options.podConfig.spawner.default is "cpu"; expected an option that is not redirected (it redirects to "gpu"); the spawner does not show redirected options [notebooks/option-default]',
      '1 document checked; 2 findings',
    ]);
  });

  test('notebooks/image-port: an image port the kind does not declare', () => {
    const docs = platform();
    kindOf(docs).spec.podTemplate.options.imageConfig.values[1].spec.ports[0].id = 'vscode';
    expect(lines(lintDocs(docs).stdout)).toEqual([
      '<stdin>:37:9: WorkspaceKind jupyterlab: spec.podTemplate.options.imageConfig.values[jupyter-pytorch-cuda-full:v1.10.0].spec.ports[0].id is "vscode"; expected the id of a port in spec.podTemplate.ports: "jupyterlab" [notebooks/image-port]',
      '1 document checked; 1 finding',
    ]);
  });

  test('notebooks/workspace-option: a Workspace choosing an option its kind (in the same input) does not have', () => {
    const team = yaml.loadAll(fs.readFileSync(path.join(outdir, 'notebooks-team-vision.k8s.yaml'), 'utf8')) as any[];
    const workspace = team.find(d => d.kind === 'Workspace');
    workspace.spec.podTemplate.options.podConfig = 'tpu';
    const result = runCli(['lint', '-'], [...platform(), workspace].map(d => yaml.dump(d, { lineWidth: -1 })).join('---\n'));
    const found = lines(result.stdout);
    expect(found.slice(1)).toEqual([
      '2 documents checked; 1 finding',
    ]);
    expect(found[0]).toMatch(new RegExp(`^<stdin>:\\d+:7: Workspace team-vision/${workspace.metadata.name}: spec\\.podTemplate\\.options\\.podConfig is "tpu"; expected the id of a pod-config option of WorkspaceKind "jupyterlab": "cpu", "gpu" \\[notebooks/workspace-option\\]$`));
  });
});

const UPSTREAM = UPSTREAM_EXAMPLES;
const STALE = 'training-operator/xgboost/smoke-dist/xgboostjob_v1alpha1_rabit_test.yaml';

/** The upstream example whose pod templates carry `apiVersion: v1` and `kind: Pod`, which PodTemplateSpec does not have. */
const STALE_FINDINGS = [
  `${STALE}:11:9: XGBoostJob xgboost-dist-test: spec.xgbReplicaSpecs.Master.template.apiVersion is "v1"; ${PINNED_CRD_FIELDS} [library/schema]`,
  `${STALE}:12:9: XGBoostJob xgboost-dist-test: spec.xgbReplicaSpecs.Master.template.kind is "Pod"; ${PINNED_CRD_FIELDS} [library/schema]`,
  `${STALE}:25:9: XGBoostJob xgboost-dist-test: spec.xgbReplicaSpecs.Worker.template.apiVersion is "v1"; ${PINNED_CRD_FIELDS} [library/schema]`,
  `${STALE}:26:9: XGBoostJob xgboost-dist-test: spec.xgbReplicaSpecs.Worker.template.kind is "Pod"; ${PINNED_CRD_FIELDS} [library/schema]`,
  '1 document checked; 4 findings',
];

describe('lint on every upstream example (each file alone: several share a job name)', () => {
  const files = inputFiles([UPSTREAM]).map(f => path.relative(UPSTREAM, f));

  test('the corpus is all there', () => {
    expect(files.length).toBe(28);
  });

  test.each(files)('%s', file => {
    const cwd = process.cwd();
    process.chdir(UPSTREAM);
    try {
      const result = runCli(['lint', file]);
      if (file === STALE) {
        expect(lines(result.stdout)).toEqual(STALE_FINDINGS);
        expect(result.status).toBe(1);
      } else {
        expect(lines(result.stdout)).toEqual([expect.stringMatching(/^\d+ documents? checked; no findings$/)]);
        expect(result.status).toBe(0);
      }
    } finally {
      process.chdir(cwd);
    }
  });
});

const UPSTREAM_V2 = UPSTREAM_EXAMPLES_V2;
const MULTI_STEP_FINDING = 'jobs/05-multi-step.yaml:85:5: TrainJob multi-step-example: spec.initializer.dataset is {"storageUri":"hf://tatsu-lab/alpaca"}; '
  + 'expected the runtime "torch-with-dataset-init" to mount the "initializer" volume in its "dataset-initializer" container, where the initializer writes '
  + '(the Trainer webhook refuses the job otherwise) [trainer/trainjob-runtime]';

describe('lint on the Trainer v2.3.0 corpus: each job with the built-in runtimes, as a cluster has them installed', () => {
  const jobs = fs.readdirSync(path.join(UPSTREAM_V2, 'jobs')).filter(f => f.endsWith('.yaml')).sort();

  test('the corpus is all there', () => {
    expect(jobs.length).toBe(9);
    expect(fs.readdirSync(path.join(UPSTREAM_V2, 'runtimes')).filter(f => f.endsWith('.yaml')).length).toBe(9);
  });

  // The Flux jobs run on the runtime of jobs/flux-runtime.yaml, which a cluster has installed
  // beside the built-in ones (the release does not ship it): it is linted with them.
  const onFlux = (file: string) => file !== 'flux-runtime.yaml' && /name: flux-distributed/.test(fs.readFileSync(path.join(UPSTREAM_V2, 'jobs', file), 'utf8'));

  test('the Flux jobs are those of the Flux runtime', () => {
    expect(jobs.filter(onFlux)).toEqual(['flux-interactive.yaml', 'lammps-train-gpus.yaml', 'lammps-train-job.yaml']);
  });

  test.each(jobs)('jobs/%s', file => {
    const cwd = process.cwd();
    process.chdir(UPSTREAM_V2);
    try {
      const result = runCli(['lint', 'runtimes', ...(onFlux(file) ? ['jobs/flux-runtime.yaml'] : []), `jobs/${file}`]);
      if (file === '05-multi-step.yaml') {
        // The one file the Trainer's own webhook refuses (its runtime's initializer lacks the mount).
        expect(lines(result.stdout)).toEqual([MULTI_STEP_FINDING, '11 documents checked; 1 finding']);
        expect(result.status).toBe(1);
      } else {
        expect(lines(result.stdout)).toEqual([expect.stringMatching(/^1[01] documents checked; no findings$/)]);
        expect(result.status).toBe(0);
      }
    } finally {
      process.chdir(cwd);
    }
  });
});

test('a TrainJob alone on a built-in runtime is checked against that runtime as the release ships it', () => {
  const job = [
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    'kind: TrainJob',
    'metadata: {name: sft, namespace: ml}',
    'spec:',
    '  runtimeRef: {name: torch-distributed}',
    '  initializer: {model: {storageUri: "hf://meta-llama/Llama-3.2-1B"}}',
    '',
  ].join('\n');
  const result = runCli(['lint', '-'], job);
  expect(lines(result.stdout)).toEqual([
    '<stdin>:6:17: TrainJob ml/sft: spec.initializer.model is {"storageUri":"hf://meta-llama/Llama-3.2-1B"}; expected a runtime with a "model-initializer" step; '
      + 'the runtime "torch-distributed" (built into Trainer v2.3.0) has only "node" [trainer/trainjob-runtime]',
    '1 document checked; 1 finding',
  ]);
  expect(result.status).toBe(1);
});

describe('a TrainJob on a runtime the input does not define, when the input defines runtimes', () => {
  const runtime = (kind: string, name: string) => [
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    `kind: ${kind}`,
    `metadata: {name: ${name}${kind === 'TrainingRuntime' ? ', namespace: ml' : ''}}`,
    'spec:',
    '  mlPolicy: {numNodes: 1, torch: {}}',
    '  template: {spec: {replicatedJobs: [{name: node, template: {metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}, spec: {template: {spec: {containers: [{name: node, image: "pytorch/pytorch:2.13.0"}]}}}}}]}}',
  ].join('\n');
  const job = (kind: string, name: string, annotated = false) => [
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    'kind: TrainJob',
    `metadata: {name: sft, namespace: ml${annotated ? ', annotations: {cdk8s-kubeflow/runtime-provided: "true"}' : ''}}`,
    'spec:',
    `  runtimeRef: {kind: ${kind}, name: ${name}}`,
  ].join('\n');
  const lint = (...docs: string[]) => {
    const result = runCli(['lint', '-'], docs.join('\n---\n') + '\n');
    return [result.status, ...lines(result.stdout)];
  };
  const provided = '(the annotation cdk8s-kubeflow/runtime-provided: "true") [trainer/trainjob-runtime]';

  test('a near name', () => {
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('ClusterTrainingRuntime', 'torch-8gpu'))).toEqual([
      1,
      `<stdin>:12:46: TrainJob ml/sft: spec.runtimeRef.name is "torch-8gpu"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "torch-8gpus"? A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("torch-8gpu") ${provided}`,
      '2 documents checked; 1 finding',
    ]);
  });

  test('the wrong kind, both ways', () => {
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('TrainingRuntime', 'torch-8gpus'))).toEqual([
      1,
      '<stdin>:12:16: TrainJob ml/sft: spec.runtimeRef.kind is "TrainingRuntime"; expected ClusterTrainingRuntime: the app\'s "torch-8gpus" is a ClusterTrainingRuntime, and the app defines no TrainingRuntime of that name (TrainingRuntimeRef.cluster("torch-8gpus"), or the runtime\'s ref) [trainer/trainjob-runtime]',
      '2 documents checked; 1 finding',
    ]);
    expect(lint(runtime('TrainingRuntime', 'team-torch'), job('ClusterTrainingRuntime', 'team-torch'))).toEqual([
      1,
      '<stdin>:12:16: TrainJob ml/sft: spec.runtimeRef.kind is "ClusterTrainingRuntime"; expected TrainingRuntime: the app\'s "team-torch" is a TrainingRuntime in namespace "ml", and the app defines no ClusterTrainingRuntime of that name (TrainingRuntimeRef.namespaced("team-torch"), or the runtime\'s ref) [trainer/trainjob-runtime]',
      '2 documents checked; 1 finding',
    ]);
  });

  test('no near name', () => {
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('ClusterTrainingRuntime', 'llama-special'))).toEqual([
      1,
      `<stdin>:12:46: TrainJob ml/sft: spec.runtimeRef.name is "llama-special"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; the app defines "torch-8gpus". A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("llama-special") ${provided}`,
      '2 documents checked; 1 finding',
    ]);
  });

  test('accepted: the annotation that the cluster provides it, a built-in runtime, any name when the input defines no runtime', () => {
    const clean = [0, '2 documents checked; no findings'];
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('ClusterTrainingRuntime', 'torch-8gpu', true))).toEqual(clean);
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('TrainingRuntime', 'team-torch', true))).toEqual(clean);
    expect(lint(runtime('ClusterTrainingRuntime', 'torch-8gpus'), job('ClusterTrainingRuntime', 'torch-distributed'))).toEqual(clean);
    expect(lint(job('ClusterTrainingRuntime', 'torch-8gpu'))).toEqual([0, '1 document checked; no findings']);
  });

  test('an upstream Flux job linted without its runtime', () => {
    const cwd = process.cwd();
    process.chdir(UPSTREAM_V2);
    try {
      const result = runCli(['lint', 'runtimes', 'jobs/lammps-train-job.yaml']);
      expect(lines(result.stdout)).toEqual([
        'jobs/lammps-train-job.yaml:32:5: TrainJob lammps-flux: spec.runtimeRef.name is "flux-distributed"; expected a ClusterTrainingRuntime of the app or one built into Trainer v2.3.0; did you mean "mlx-distributed"? '
          + `A runtime the cluster provides apart from the app is named with TrainingRuntimeRef.providedByCluster("flux-distributed") ${provided}`,
        '10 documents checked; 1 finding',
      ]);
      expect(result.status).toBe(1);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('output formats', () => {
  const input = CASES['training-operator/injected-env'];

  test('json', () => {
    const result = runCli(['lint', '--format', 'json', '-'], input);
    expect(JSON.parse(result.stdout)).toEqual({
      documents: 1,
      checked: 1,
      skipped: 0,
      skippedKinds: {},
      findings: [{
        file: '<stdin>',
        line: 23,
        column: 19,
        document: { kind: 'PyTorchJob', namespace: 'ml', name: 'train' },
        rule: 'training-operator/injected-env',
        severity: 'error',
        field: 'spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE]',
        value: { name: 'WORLD_SIZE', value: '3' },
        allowed: INJECTED_ENV,
        message: `spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE] is {"name":"WORLD_SIZE","value":"3"}; ${INJECTED_ENV}`,
      }],
      silenced: [],
    });
    expect(result.status).toBe(1);
  });

  test('github: workflow-command annotations with escaped properties', () => {
    const result = runCli(['lint', '--format=github', '-'], input);
    expect(lines(result.stdout)).toEqual([
      `::error file=<stdin>,line=23,col=19,title=training-operator/injected-env (PyTorchJob ml/train)::PyTorchJob ml/train: spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[WORLD_SIZE] is {"name":"WORLD_SIZE","value":"3"}; ${INJECTED_ENV}`,
      '1 document checked; 1 finding',
    ]);
  });

  test('other kinds are skipped and counted; List items are documents', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }] };
    const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name } });
    const result = runCli(['lint', '-'], [list, deployment('d'), deployment('e')].map(d => yaml.dump(d)).join('---\n'));
    expect(result.stdout).toBe('0 documents checked, 3 skipped (kinds not known: Deployment, Service); no findings\n');
    expect(result.status).toBe(0);
  });
});

test('a folder without YAML: a usage error (a CI step on an empty dist/ checks nothing), unless --allow-empty', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-empty-'));
  fs.writeFileSync(path.join(dir, 'README.md'), '# not YAML\n');
  const refused = `cdk8s-kubeflow: no YAML documents in ${dir}; expected at least one (--allow-empty accepts an input without any)\n`;
  try {
    expect(runCli(['lint', dir])).toEqual({ status: 2, stdout: '', stderr: refused });
    expect(runCli(['plan', dir])).toEqual({ status: 2, stdout: '', stderr: refused });
    expect(runCli(['lint', '--allow-empty', dir])).toEqual({ status: 0, stdout: '0 documents checked; no findings\n', stderr: `cdk8s-kubeflow: no YAML documents in ${dir}\n` });
    const plan = runCli(['plan', dir, '--allow-empty']);
    expect([plan.status, plan.stderr]).toEqual([0, `cdk8s-kubeflow: no YAML documents in ${dir}\n`]);
    // A switch takes no value.
    expect(runCli(['lint', '--allow-empty=yes', dir]).stderr.split('\n')[0]).toBe('cdk8s-kubeflow: --allow-empty takes no value');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('usage errors exit with 2', () => {
  test.each([
    [['lint'], 'cdk8s-kubeflow: lint needs at least one PATH'],
    [['lint', '--format', 'yaml', 'x'], 'cdk8s-kubeflow: --format is "yaml"; expected text, json or github'],
    [['lint', '--fix', 'x'], 'cdk8s-kubeflow: unknown option "--fix"'],
    [['lint', 'no/such/file.yaml'], 'cdk8s-kubeflow: no/such/file.yaml: no such file or folder'],
    [['deploy'], 'cdk8s-kubeflow: unknown command "deploy"'],
    [['plan', 'no-such-folder'], 'cdk8s-kubeflow: no-such-folder: no such file or folder'],
    [['plan', 'new', '--against'], 'cdk8s-kubeflow: --against needs a value'],
    [['plan', '--against', 'old'], 'cdk8s-kubeflow: plan needs at least one PATH'],
  ])('%j', (args, message) => {
    const result = runCli(args);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(2);
  });
});

describe('an internal error exits with 3', () => {
  test('a document the YAML parser cannot take (nested 5,000 deep): the error named as internal, with its stack', () => {
    const result = runCli(['lint', '-'], TOO_DEEP);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    const [first, second] = result.stderr.split('\n');
    expect(first).toBe('cdk8s-kubeflow: internal error (a fault of the command, not a finding): RangeError: Maximum call stack size exceeded');
    // The stack follows, for a bug report.
    expect(second).toBe('RangeError: Maximum call stack size exceeded');
    expect(result.stderr.split('\n').slice(2).some(l => /^ {4}at /.test(l))).toBe(true);
  });

  test('plan on the same input: also 3, not 1 (which would say the input has a document that is not YAML)', () => {
    expect(runCli(['plan', '-'], TOO_DEEP).status).toBe(3);
  });

  test('what is thrown that is not an Error is named as such', () => {
    expect(internalError('boom')).toBe('cdk8s-kubeflow: internal error (a fault of the command, not a finding): a non-error value was thrown: boom\n');
  });
});

describe('the operator rules', () => {
  test('ids are unique, named by their source, and each cites its upstream source', () => {
    const ids = KUBEFLOW_RULES.map(r => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of KUBEFLOW_RULES) {
      expect(rule.id).toMatch(/^(training-operator|notebooks)\/[a-z-]+$/);
      expect(rule.upstream).toMatch(/training-operator|kubeflow\/notebooks/);
    }
    expect(ids.sort()).toEqual([
      'notebooks/activity-probe', 'notebooks/activity-rules', 'notebooks/filter-rules', 'notebooks/home-mount', 'notebooks/image-port',
      'notebooks/option-default', 'notebooks/option-redirect', 'notebooks/reserved-pod-label', 'notebooks/reserved-volume-name',
      'notebooks/workspace-kind-template', 'notebooks/workspace-mount-path', 'notebooks/workspace-option', 'notebooks/workspace-pod-annotations',
      'training-operator/clean-pod-policy', 'training-operator/elastic-bounds', 'training-operator/elastic-nproc', 'training-operator/elastic-standalone',
      'training-operator/framework-container', 'training-operator/gang-min-available', 'training-operator/injected-env',
      'training-operator/managed-by', 'training-operator/mpi-launcher-gpu-env', 'training-operator/mpi-main-container', 'training-operator/mpi-np',
      'training-operator/mpi-slots', 'training-operator/nproc-per-node', 'training-operator/operator-pod-labels', 'training-operator/pod-name-length',
      'training-operator/pod-restart-policy', 'training-operator/pytorch-master', 'training-operator/rdzv-backend', 'training-operator/rdzv-conf',
      'training-operator/rdzv-endpoint', 'training-operator/replica-count',
      'training-operator/replica-restart-policy', 'training-operator/replica-type', 'training-operator/reserved-names', 'training-operator/restricted-operator-init', 'training-operator/service-ports',
      'training-operator/tf-success-policy',
    ]);
  });

  test('docs/cli.md counts the rules of each source as they are', () => {
    const doc = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', 'cli.md'), 'utf8');
    for (const { source } of RULE_SETS) {
      const row = new RegExp(`^\\| [^|]+ \\(\`${source}\`\\) \\| (\\d+) \\|`, 'm').exec(doc);
      expect([source, Number(row?.[1])]).toEqual([source, LINT_RULES.filter(r => r.source === source).length]);
    }
    for (const rule of KUBEFLOW_RULES) expect(doc).toContain(`| \`${rule.id}\` |`);
  });

  test('`rules` lists every source with its name and count, and every rule a finding of this file names', () => {
    const result = runCli(['rules']);
    expect(result.status).toBe(0);
    const count = (source: string) => LINT_RULES.filter(r => r.source === source).length;
    expect(lines(result.stdout).filter(l => !l.startsWith(' '))).toEqual([
      `Kubernetes (API server, Pod Security admission, kubelet and container runtime) [kubernetes]: ${count('kubernetes')}`,
      'JobSet (webhook and controller) [jobset]: 15',
      'Kubeflow Trainer v2 (webhooks and runtime plugins) [trainer]: 22',
      `Kubeflow Training Operator v1 (webhooks and controllers) [training-operator]: ${count('training-operator')}`,
      'Kubeflow Notebooks v2 (webhooks) [notebooks]: 13',
      'Kueue [kueue]: 16',
      'cdk8s-kubeflow\'s own (the YAML reader; the CRD schema, strictly) [library]: 4',
      `${LINT_RULES.length} rules`,
    ]);
    expect(count('kubernetes')).toBe(KUBERNETES_RULE_SET.rules.length);
    // Every rule once, under its own source.
    const listed = lines(result.stdout).filter(l => l.startsWith('    ')).map(l => l.trim().split(' ')[0]);
    expect([...listed].sort()).toEqual(LINT_RULES.map(r => r.id).sort());
    const trainer = result.stdout.slice(result.stdout.indexOf('Kubeflow Trainer v2'), result.stdout.indexOf('Kubeflow Training Operator'));
    expect(lines(trainer).filter(l => l.startsWith('    ')).map(l => l.trim().split(' ')[0]))
      .toEqual(['trainer/runtime-ref-kind', 'trainer/runtime-step', 'trainer/replicated-job-name', 'trainer/runtime-policy', 'trainer/ssh-auth-mount-path', 'trainer/replicated-job-name-length',
        'trainer/runtime-plugin-env', 'trainer/rendezvous-address', 'trainer/mpi-implementation', 'trainer/runtime-plugin-port', 'trainer/runtime-plugin-volume',
        'trainer/patch-manager', 'trainer/patch-env', 'trainer/kueue-patch-metadata', 'trainer/counts', 'trainer/prte-env', 'trainer/initializer-storage-uri', 'trainer/patch-replaces-list', 'trainer/trainjob-runtime', 'trainer/trainjob-reach', 'trainer/mpi-launcher-image', 'trainer/mpi-node-image']);
    // A rule of some upstream versions only says which.
    expect(lines(trainer).filter(l => l.includes('[versions: ')).map(l => `${l.trim().split(' ')[0]} ${/\[versions: (.*)\]$/.exec(l)![1]}`)).toEqual([
      'trainer/replicated-job-name-length Kubeflow Trainer v2.4.0 and later',
      'trainer/prte-env Kubeflow Trainer v2.4.0 and later',
      'trainer/mpi-launcher-image Kubeflow Trainer: while the window holds versions before and from v2.4.0',
      'trainer/mpi-node-image Kubeflow Trainer before v2.4.0',
    ]);
    const named = EXPECTED.flatMap(([, found]) => found.map(f => /\[([^\]]+)\]$/.exec(f)?.[1]).filter((id): id is string => id !== undefined));
    expect(named.filter(id => !listed.includes(id))).toEqual([]);
  });
});

describe('the jobs whose derived objects Kubernetes refuses (conformance/testdata/derived)', () => {
  // Each job there names the errors Kubernetes gives the Pods and Services the operator builds from
  // it (`# expect-derived:` lines, checked by conformance/kube TestDerivedFixtures); lint refuses
  // exactly those jobs, with the rule of the family, and passes the control.
  const file = path.join(__dirname, '..', '..', '..', 'conformance', 'testdata', 'derived', 'training-operator.yaml');
  const jobs = fs.readFileSync(file, 'utf8').split(/^---$/m);

  test.each(jobs.map(j => [/^metadata: \{name: ([a-z0-9-]+)/m.exec(j)?.[1], j]))('%s', (_name, input) => {
    const refused = /^# expect-derived: /m.test(input!);
    const rules = lintFindings(input!).map(f => f.split(' ')[0]);
    expect([...new Set(rules)]).toEqual(refused ? [expect.stringMatching(/^training-operator\/(reserved-names|service-ports)$/)] : []);
  });
});
