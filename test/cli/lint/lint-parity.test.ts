/**
 * `lint` equals the constructs (issue #21 item 4). Three walks:
 *
 * 1. The rule table: every catalogue rule is in `lint`'s rule set and sources, and the rules a
 *    fixture can trigger are proven by running `lint` on it.
 * 2. The constructs' error paths, read from the sources (construct-error-paths.ts): each is covered
 *    by one row of test/cli/construct-only.ts, mirrored by catalogue rules `lint` runs, or
 *    construct-only with a reason, or listed as not yet in lint (a list that only shrinks). A new
 *    construct check with none of these fails here.
 * 3. Every mirrored row is proven: a valid document, the row's mistake made in it, and `lint`
 *    finding it with a rule the row names. The checks that moved into a rule give one message to
 *    both: the construct's (through synth, or thrown at once) and `lint`'s on the same mistake.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  ActivityProbe, ActivityRule, DistributedPaddle, DistributedPyTorch, FilterScope, GangScheduler, MlPolicy, MpiAllReduce, NprocPerNode,
  ParameterServerTF, RestartPolicy, Topology, TrainJob, TrainingRuntime, TrainingRuntimeRef, Workspace, WorkspaceKind, WorkspaceKindProps,
} from '../../../src';
import { LINT_RULES } from '../../../src/cli/rules/rules';
import { ALL_RULES, ruleSource } from '../../../src/rules/catalogue';
import { REPORT, synthErrors } from '../../harness';
import { HOME_MOUNT_TAKEN, WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../../harness/messages';
import { JUPYTERLAB_KIND, SCIPY_IMAGE } from '../../harness/notebook-fixtures';
import { STATIC_PYTORCH, job, mpi, pytorch, replica, stream } from '../broken-documents';
import { constructErrorPaths, keyOf } from '../construct-error-paths';
import { CONSTRUCT_ONLY_CHECKS, MIRRORED_CHECKS, NOT_YET_IN_LINT } from '../construct-only';
import { CASES } from '../lint-cases';
import { lintFindings } from '../run-cli';

/** `lint --format json` on a YAML stream: its findings as `rule message`. */
const rulesOf = (findings: readonly string[]) => new Set(findings.map(f => f.split(' ')[0]));

describe('every catalogue rule runs in lint', () => {
  test('lint\'s rule set is the catalogue, and every rule has a source lint can switch', () => {
    const lintIds = new Set(LINT_RULES.map(r => r.id));
    expect(ALL_RULES.filter(r => !lintIds.has(r.id)).map(r => r.id)).toEqual([]);
    expect(ALL_RULES.filter(r => ruleSource(r.id) === undefined).map(r => r.id)).toEqual([]);
  });

  test('the rules the lint fixtures and the mirrored rows\' proofs trigger are found by lint itself', () => {
    const fired = new Set<string>();
    for (const input of [...Object.values(CASES), ...PROOFS.map(p => stream(...p.mistake())), ...MOVED.map(d => stream(d()))]) {
      for (const rule of rulesOf(lintFindings(input))) fired.add(rule);
    }
    const catalogue = new Set(ALL_RULES.map(r => r.id));
    // Every rule a fixture fired is a catalogue rule (or the reader's own), and the operator rules
    // are all proven this way, not only listed.
    expect([...fired].filter(r => !catalogue.has(r) && r !== 'library/yaml-syntax')).toEqual([]);
    const operatorRules = ALL_RULES.filter(r => r.source === 'training-operator' && r.id !== 'training-operator/pod-name-collision'
      && !['training-operator/clean-pod-policy', 'training-operator/replica-restart-policy', 'training-operator/managed-by', 'training-operator/rdzv-backend', 'training-operator/tf-success-policy',
        'training-operator/restricted-operator-init'].includes(r.id));
    expect(operatorRules.filter(r => !fired.has(r.id)).map(r => r.id)).toEqual([]);
  });
});

describe('every construct error path is a catalogue rule\'s or has a reason', () => {
  const paths = constructErrorPaths();
  const rows = [...MIRRORED_CHECKS, ...CONSTRUCT_ONLY_CHECKS, ...NOT_YET_IN_LINT];

  test('the sources have the error paths the table was written from', () => {
    // A guard against a reader that finds nothing (every later test would pass on no paths).
    expect(paths.length).toBeGreaterThan(150);
    expect(paths.map(p => p.file)).toEqual(expect.arrayContaining(['training/pytorch.ts', 'trainer/train-job.ts', 'notebooks/workspace-kind.ts', 'common/replica.ts']));
  });

  test('each error path is covered by exactly one row', () => {
    const covering = (key: string) => rows.filter(r => r.calls.some(c => `${r.where} ${c}` === key)).map(r => r.id);
    const uncovered = paths.filter(p => covering(keyOf(p)).length === 0).map(p => `${p.file}:${p.line} ${p.helper} ${p.field}`);
    expect(uncovered).toEqual([]);
    const twice = [...new Set(paths.map(keyOf))].filter(k => covering(k).length > 1);
    expect(twice).toEqual([]);
  });

  test('each row covers error paths that exist (no row outlives its check)', () => {
    const keys = new Set(paths.map(keyOf));
    const stale = rows.flatMap(r => r.calls.filter(c => !keys.has(`${r.where} ${c}`)).map(c => `${r.id}: ${c}`));
    expect(stale).toEqual([]);
    // The one row without calls is the jsii boundary's, whose checks are generated from the assembly.
    expect(rows.filter(r => r.calls.length === 0).map(r => r.id)).toEqual(['boundary.types']);
    expect(fs.existsSync(path.join(path.dirname(__dirname), '..', '..', 'src', 'boundary', 'check.ts'))).toBe(true);
  });

  test('ids are unique; mirrored rows name rules lint runs; the others give a reason', () => {
    const ids = rows.map(r => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const lintIds = new Set(LINT_RULES.map(r => r.id));
    expect(MIRRORED_CHECKS.flatMap(r => r.rules.filter(id => !lintIds.has(id)).map(id => `${r.id}: ${id}`))).toEqual([]);
    expect([...CONSTRUCT_ONLY_CHECKS, ...NOT_YET_IN_LINT].filter(r => r.why.length < 40).map(r => r.id)).toEqual([]);
  });

  test('the checks not yet in lint are these (the list may only shrink, by a rule that takes one over)', () => {
    expect(NOT_YET_IN_LINT.map(r => r.id)).toEqual([]);
  });

  test('docs/cli.md lists every construct-only check and every check not yet in lint, as the code does', () => {
    const doc = fs.readFileSync(path.join(path.dirname(__dirname), '..', '..', 'docs', 'cli.md'), 'utf8');
    const line = (r: { id: string; where: string; why: string }) => `| \`${r.id}\` | \`${r.where}\` | ${r.why.replace(/\|/g, '\\|')} |`;
    expect([...CONSTRUCT_ONLY_CHECKS, ...NOT_YET_IN_LINT].filter(r => !doc.includes(line(r))).map(r => r.id)).toEqual([]);
  });
});

// ---- the proofs of the mirrored rows ---------------------------------------------------------

const IMAGE = 'registry.example/train:1.0';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** A WorkspaceKind with every part the notebooks rows change: probe, rules, labels, redirect, filter. */
function notebookDocs(): { kind: any; workspace: any } {
  const chart = new Chart(Testing.app(), 'test');
  const kind = new WorkspaceKind(chart, 'kind', {
    ...JUPYTERLAB_KIND,
    activityProbe: ActivityProbe.script('#!/usr/bin/env bash\necho \'{"has_activity": true}\' > "$OUTPUT_JSON_PATH"\n', {
      timeout: Duration.seconds(30), interval: Duration.minutes(30), minInterval: Duration.minutes(1),
    }),
    activityRules: [{ inactiveFor: Duration.hours(4), minRunning: Duration.minutes(10) }],
    filterRules: [{ scope: FilterScope.POD_CONFIG, podConfigSelector: { matchLabels: { gpu: '1' } }, deny: true, denyMessage: 'No GPUs for this team.' }],
  });
  kind.addImageConfig('scipy', { ...SCIPY_IMAGE, labels: { python: '3.12' } });
  kind.addImageConfig('old', { ...SCIPY_IMAGE, redirect: { to: 'scipy', message: 'Use scipy.' } });
  kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  const workspace = new Workspace(chart, 'ws', { metadata: { name: 'alice', namespace: 'ml' }, kind, secrets: [{ secret: kplus.Secret.fromSecretName(chart, 'S', 'creds'), mountPath: '/creds' }] });
  return { kind: kind.apiObject.toJson(), workspace: workspace.apiObject.toJson() };
}

const NOTEBOOKS = notebookDocs();
const TF = () => job('TFJob', 'tfReplicaSpecs', {
  Chief: { replicas: 1, template: { spec: { containers: [{ name: 'tensorflow', image: IMAGE }] } } },
  Worker: { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: IMAGE }] } } },
});
const podOf = (container: string) => ({ template: { spec: { containers: [{ name: container, image: IMAGE }] } } });
const PADDLE = () => job('PaddleJob', 'paddleReplicaSpecs', { Master: { replicas: 1, ...podOf('paddle') }, Worker: { replicas: 2, ...podOf('paddle') } });
const JAX = () => job('JAXJob', 'jaxReplicaSpecs', { Worker: { replicas: 2, ...podOf('jax') } });
const XGBOOST = () => job('XGBoostJob', 'xgbReplicaSpecs', { Master: { replicas: 1, ...podOf('xgboost') }, Worker: { replicas: 2, ...podOf('xgboost') } });
const ELASTIC = () => pytorch({ Worker: replica(2) }, { elasticPolicy: { minReplicas: 1, maxReplicas: 4 } });
const TRAIN_JOB = () => ({
  apiVersion: 'trainer.kubeflow.org/v1alpha1',
  kind: 'TrainJob',
  metadata: { name: 'tune', namespace: 'ml' },
  spec: { runtimeRef: { name: 'torch-distributed' } },
});

/** A TrainingRuntime of the MPI policy, as the construct writes it (numNodes, slots and SSH path set). */
const MPI_RUNTIME = () => new TrainingRuntime(new Chart(Testing.app(), 'test'), 'rt', {
  metadata: { name: 'mpi', namespace: 'ml' },
  image: IMAGE,
  numNodes: 2,
  mlPolicy: MlPolicy.mpi({ slotsPerWorker: 2, sshAuthMountPath: '/home/mpiuser/.ssh' }),
}).apiObject.toJson();

interface Proof {
  /** The mirrored row proven. */
  readonly id: string;
  /** The valid documents. */
  readonly valid: () => any[];
  /** The same documents with the row's mistake. */
  readonly mistake: () => any[];
}

/** A proof that changes a copy of the valid documents. */
function proof(id: string, valid: () => any[], change: (docs: any[]) => void): Proof {
  return { id, valid, mistake: () => { const docs = clone(valid()); change(docs); return docs; } };
}

const PYTORCH_POD = (d: any, type = 'Worker') => d.spec.pytorchReplicaSpecs[type].template.spec;
const KIND = () => [NOTEBOOKS.kind];
const KIND_SPEC = (d: any) => d.spec;
const IMAGE_OPTION = (d: any) => d.spec.podTemplate.options.imageConfig.values[0];

const PROOFS: Proof[] = [
  proof('common.node-health', () => [STATIC_PYTORCH()], ([d]) => {
    PYTORCH_POD(d).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'health', operator: 'NotIn', values: [] }] }] } } };
  }),
  proof('common.mount-path', () => [STATIC_PYTORCH()], ([d]) => {
    PYTORCH_POD(d).volumes = [{ name: 'data', emptyDir: {} }];
    PYTORCH_POD(d).containers[0].volumeMounts = [{ name: 'data', mountPath: '' }];
  }),
  proof('common.amounts', () => [STATIC_PYTORCH()], ([d]) => {
    PYTORCH_POD(d).containers[0].resources = { requests: { cpu: '2' }, limits: { cpu: '1' } };
  }),
  proof('common.replica-count', () => [STATIC_PYTORCH()], ([d]) => { d.spec.pytorchReplicaSpecs.Master.replicas = 2; }),
  proof('common.replica-image', () => [STATIC_PYTORCH()], ([d]) => { delete PYTORCH_POD(d).containers[0].image; }),
  proof('common.replica-mount-path-once', () => [STATIC_PYTORCH()], ([d]) => {
    PYTORCH_POD(d).volumes = [{ name: 'a', emptyDir: {} }, { name: 'b', emptyDir: {} }];
    PYTORCH_POD(d).containers[0].volumeMounts = [{ name: 'a', mountPath: '/data' }, { name: 'b', mountPath: '/data/' }];
  }),
  proof('training.elastic-bounds', () => [ELASTIC()], ([d]) => { d.spec.elasticPolicy.minReplicas = 8; }),
  proof('training.leader-count', () => [TF()], ([d]) => { d.spec.tfReplicaSpecs.Master = clone(d.spec.tfReplicaSpecs.Chief); }),
  proof('training.workers-with-leader', () => [TF()], ([d]) => { delete d.spec.tfReplicaSpecs.Chief; d.spec.tfReplicaSpecs.Worker.replicas = 0; }),
  proof('training.elastic-workers', () => [ELASTIC()], ([d]) => { delete d.spec.pytorchReplicaSpecs.Worker; }),
  proof('training.elastic-master', () => [ELASTIC()], ([d]) => { d.spec.pytorchReplicaSpecs.Master = replica(1); }),
  proof('common.replica-count-floor', () => [STATIC_PYTORCH()], ([d]) => { d.spec.pytorchReplicaSpecs.Worker.replicas = -1; }),
  proof('training.pytorch-workers-floor', () => [STATIC_PYTORCH()], ([d]) => { d.spec.pytorchReplicaSpecs.Worker.replicas = -2; }),
  proof('training.tf-counts', () => [TF()], ([d]) => { d.spec.tfReplicaSpecs.PS = { ...clone(d.spec.tfReplicaSpecs.Worker), replicas: -1 }; }),
  proof('training.paddle-counts', () => [PADDLE()], ([d]) => { d.spec.paddleReplicaSpecs.Master.replicas = 0; }),
  proof('training.mpi-workers-floor', () => [mpi({}, 2)], ([d]) => { d.spec.mpiReplicaSpecs.Worker.replicas = -1; }),
  proof('training.jax-counts', () => [JAX()], ([d]) => { d.spec.jaxReplicaSpecs.Worker.replicas = 0; }),
  proof('training.xgboost-counts', () => [XGBOOST()], ([d]) => { d.spec.xgbReplicaSpecs.Worker.replicas = -1; }),
  proof('training.elastic-bound-floors', () => [ELASTIC()], ([d]) => { d.spec.elasticPolicy.minReplicas = 0; }),
  proof('trainer.storage-uri', () => [TRAIN_JOB()], ([d]) => { d.spec.initializer = { dataset: { storageUri: 'tatsu-lab/alpaca' } }; }),
  proof('trainer.mount-path-once', () => [TRAIN_JOB()], ([d]) => {
    const pod = {
      volumes: [{ name: 'a', emptyDir: {} }, { name: 'b', emptyDir: {} }],
      containers: [{ name: 'node', volumeMounts: [{ name: 'a', mountPath: '/data' }, { name: 'b', mountPath: '/data' }] }],
    };
    const replicatedJobs = [{ name: 'node', template: { spec: { template: { spec: pod } } } }];
    d.spec.runtimePatches = [{ manager: 'example.com/ml', trainingRuntimeSpec: { template: { spec: { replicatedJobs } } } }];
  }),
  proof('common.topology-values', () => [STATIC_PYTORCH()], ([d]) => {
    d.spec.pytorchReplicaSpecs.Worker.template.metadata = { annotations: { 'kueue.x-k8s.io/podset-required-topology': 'rack block' } };
  }),
  proof('common.kai-topology-values', () => [STATIC_PYTORCH()], ([d]) => {
    d.metadata.annotations = { 'kai.scheduler/topology': 'Cluster_Topology', 'kai.scheduler/topology-required-placement': 'rack' };
  }),
  proof('training.nproc', () => [STATIC_PYTORCH()], ([d]) => { d.spec.nprocPerNode = '0'; }),
  proof('training.mpi-slots-floor', () => [mpi({}, 2)], ([d]) => { d.spec.slotsPerWorker = 0; }),
  proof('trainer.counts', () => [TRAIN_JOB()], ([d]) => { d.spec.trainer = { numNodes: 0 }; }),
  proof('trainer.runtime-counts', () => [MPI_RUNTIME()], ([d]) => { d.spec.mlPolicy.numNodes = 0; }),
  proof('trainer.ml-policy', () => [MPI_RUNTIME()], ([d]) => { d.spec.mlPolicy.mpi.sshAuthMountPath = ''; }),
  proof('notebooks.probe-script', KIND, ([d]) => { d.spec.podTemplate.activityProbe.podExec.script = 'echo \'{"has_activity": true}\'\n'; }),
  proof('notebooks.option-lengths', KIND, ([d]) => { IMAGE_OPTION(d).spawner.displayName = 'x'; }),
  proof('notebooks.activity-probe', KIND, ([d]) => { d.spec.podTemplate.activityProbe.minProbeIntervalSeconds = 7200; }),
  proof('notebooks.kind-texts', KIND, ([d]) => { KIND_SPEC(d).spawner.displayName = 'J'; }),
  proof('notebooks.image-ports', KIND, ([d]) => { IMAGE_OPTION(d).spec.ports[0].port = 0; }),
  proof('notebooks.activity-rule-bounds', KIND, ([d]) => { d.spec.activityRules[0].config.secondsSinceActive = 10; }),
  proof('notebooks.filter-rules', KIND, ([d]) => { delete d.spec.filterRules[0].effect.api.deny; }),
  proof('notebooks.kind-options-required', KIND, ([d]) => { d.spec.podTemplate.ports = []; }),
  proof('notebooks.workspace-display-name', () => [NOTEBOOKS.kind, NOTEBOOKS.workspace], ([, w]) => { w.spec.displayName = ''; }),
  proof('notebooks.workspace-names', () => [NOTEBOOKS.kind, NOTEBOOKS.workspace], ([, w]) => { w.spec.kind = ''; }),
  proof('notebooks.icon-source', KIND, ([d]) => { d.spec.spawner.icon = {}; }),
];

describe('every mirrored row is proven: lint finds its mistake with a rule the row names', () => {
  test('every mirrored row has a proof', () => {
    expect(MIRRORED_CHECKS.filter(r => !PROOFS.some(p => p.id === r.id)).map(r => r.id)).toEqual([]);
  });

  test.each(PROOFS.map(p => [p.id, p] as const))('%s', (id, p) => {
    expect(lintFindings(stream(...p.valid()))).toEqual([]);
    const row = MIRRORED_CHECKS.find(r => r.id === id)!;
    const found = rulesOf(lintFindings(stream(...p.mistake())));
    expect(row.rules.filter(r => found.has(r))).not.toEqual([]);
  });
});

/** Hand-written documents with the mistakes of the checks that moved out of the constructs. */
const MOVED: ReadonlyArray<() => any> = [
  () => {
    const d = pytorch({ Master: { ...replica(1), restartPolicy: 'OnFailure' }, Worker: { ...replica(1), restartPolicy: 'OnFailure' } });
    d.spec.pytorchReplicaSpecs.Worker.template.spec.restartPolicy = 'Always';
    return d;
  },
  () => pytorch({ Master: replica(1), Worker: replica(0) }),
  () => pytorch({ Master: replica(1), Worker: replica(2) }, { runPolicy: { schedulingPolicy: { minAvailable: 4 } } }),
  () => { const d = clone(NOTEBOOKS.kind); d.spec.podTemplate.activityProbe = { jupyter: { lastActivity: true, portId: 'lab' } }; return d; },
  () => { const d = clone(NOTEBOOKS.kind); delete d.spec.podTemplate.activityProbe; return d; },
  () => { const d = clone(NOTEBOOKS.kind); d.spec.activityRules.push(clone(d.spec.activityRules[0])); return d; },
  () => {
    const d = clone(NOTEBOOKS.kind);
    d.spec.podTemplate.extraVolumes = [{ name: 'home-cache', emptyDir: {} }];
    d.spec.podTemplate.extraVolumeMounts = [{ name: 'home-cache', mountPath: '/home/jovyan/' }];
    return d;
  },
];

// ---- the pod restart policy that moved into training-operator/pod-restart-policy ------------------------

describe('a pod restartPolicy the operator overwrites: the construct check moved into training-operator/pod-restart-policy', () => {
  const allowed = 'expected OnFailure (the replica\'s restartPolicy, which the operator applies over it) or none';
  const build = (c: Chart) => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 1, worker: { podRestartPolicy: RestartPolicy.ALWAYS } });

  test('the construct gives one message, the rule\'s, naming the prop', () => {
    expect(synthErrors(build)).toBe(`${REPORT}  [test/res] spec.pytorchReplicaSpecs.Worker.template.spec.restartPolicy (worker.podRestartPolicy) is "Always"; ${allowed}`);
  });

  test('lint of the rendered document, and of the same job written by hand, gives the same rule and message', () => {
    const doc = build(new Chart(Testing.app(), 'test')).apiObject.toJson();
    const message = `training-operator/pod-restart-policy spec.pytorchReplicaSpecs.Worker.template.spec.restartPolicy is "Always"; ${allowed}`;
    expect(lintFindings(stream(doc))).toEqual([message]);
    expect(lintFindings(stream(MOVED[0]()))).toEqual([message]);
  });

  test('ExitCode: the pods get Never, so Never or nothing is right and anything else is overwritten', () => {
    const exitCode = (pod: string | undefined) => {
      const d = pytorch({ Master: { ...replica(1), restartPolicy: 'ExitCode' }, Worker: { ...replica(1), restartPolicy: 'ExitCode' } });
      if (pod !== undefined) d.spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy = pod;
      return lintFindings(stream(d));
    };
    expect(exitCode(undefined)).toEqual([]);
    expect(exitCode('Never')).toEqual([]);
    expect(exitCode('OnFailure')).toEqual(['training-operator/pod-restart-policy spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy is "OnFailure"; '
      + 'expected Never or none with restartPolicy ExitCode: the operator decides restarts by exit code and writes Never on the pods']);
  });

  test('without a replica restartPolicy (the kind\'s default), or with one the operator does not know, the pod policy is not judged here', () => {
    const d = STATIC_PYTORCH();
    d.spec.pytorchReplicaSpecs.Worker.template.spec.restartPolicy = 'Always';
    expect(lintFindings(stream(d))).toEqual([]);
    d.spec.pytorchReplicaSpecs.Worker.restartPolicy = 'Sometimes';
    expect([...rulesOf(lintFindings(stream(d)))]).toEqual(['training-operator/replica-restart-policy']);
  });
});

// ---- the counts that moved into training-operator/replica-count -----------------------------------------

describe('the worker counts moved into training-operator/replica-count: one message for the construct and lint', () => {
  test('a static PyTorchJob whose Worker is scaled to 0: the webhook refuses it; synth and lint say so alike', () => {
    const allowed = 'expected at least 1; the operator refuses a Worker written with fewer replicas (leave the Worker out instead)';
    const build = (c: Chart) => {
      const j = new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2 });
      j.worker!.scale(0);
      return j;
    };
    expect(synthErrors(build)).toBe(`${REPORT}  [test/res] spec.pytorchReplicaSpecs.Worker.replicas (workers) is 0; ${allowed}`);
    const doc = build(new Chart(Testing.app(), 'test')).apiObject.toJson();
    expect(lintFindings(stream(doc))).toEqual([`training-operator/replica-count spec.pytorchReplicaSpecs.Worker.replicas is 0; ${allowed}`]);
    // The same document written by hand.
    expect(lintFindings(stream(pytorch({ Master: replica(1), Worker: replica(0) })))).toEqual([`training-operator/replica-count spec.pytorchReplicaSpecs.Worker.replicas is 0; ${allowed}`]);
  });

  test('an elastic PyTorchJob without workers', () => {
    const allowed = 'expected at least 1 for an elastic job, which runs workers only';
    expect(() => new DistributedPyTorch(new Chart(Testing.app(), 'test'), 'res', {
      metadata: { name: 'train' }, image: IMAGE, workers: 0, elastic: { minWorkers: 1, maxWorkers: 4 },
    })).toThrow(`test/res: workers is 0; ${allowed}`);
    expect(lintFindings(stream(pytorch({}, { elasticPolicy: { minReplicas: 1, maxReplicas: 4 } })))).toEqual([
      `training-operator/replica-count spec.pytorchReplicaSpecs.Worker is not set; ${allowed}`,
    ]);
  });

  test('a TFJob with neither Chief, Master nor workers', () => {
    const allowed = 'expected at least 1 when there is no chief or master: the Chief, else worker 0, decides when the job succeeds';
    expect(() => new ParameterServerTF(new Chart(Testing.app(), 'test'), 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 0, parameterServers: 2 }))
      .toThrow(`test/res: workers is 0; ${allowed}`);
    const ps = { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: IMAGE }] } } };
    expect(lintFindings(stream(job('TFJob', 'tfReplicaSpecs', { PS: ps })))).toEqual([`training-operator/replica-count spec.tfReplicaSpecs.Worker is not set; ${allowed}`]);
    expect(lintFindings(stream(job('TFJob', 'tfReplicaSpecs', { PS: ps, Worker: { ...ps, replicas: 0 } })))).toEqual([
      `training-operator/replica-count spec.tfReplicaSpecs.Worker.replicas is 0; ${allowed}`,
    ]);
  });

  test('a PaddleJob without a trainer', () => {
    const allowed = 'expected at least 1; a PaddleJob needs a trainer, and in collective mode worker 0 is the rendezvous endpoint';
    const j = new DistributedPaddle(new Chart(Testing.app(), 'test'), 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2 });
    expect(() => j.worker.scale(0)).toThrow(`test/res/Worker: replicas is 0; ${allowed}`);
    const worker = { replicas: 0, template: { spec: { containers: [{ name: 'paddle', image: IMAGE }] } } };
    expect(lintFindings(stream(job('PaddleJob', 'paddleReplicaSpecs', { Worker: worker })))).toEqual([
      `training-operator/replica-count spec.paddleReplicaSpecs.Worker.replicas is 0; ${allowed}`,
    ]);
  });

  test('a negative count of any replica type', () => {
    const allowed = WHOLE_NUMBER_0_OR_MORE;
    expect(() => new ParameterServerTF(new Chart(Testing.app(), 'test'), 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2, parameterServers: -1 }))
      .toThrow(`test/res: parameterServers is -1; ${allowed}`);
    const pod = { template: { spec: { containers: [{ name: 'tensorflow', image: IMAGE }] } } };
    expect(lintFindings(stream(job('TFJob', 'tfReplicaSpecs', { PS: { ...pod, replicas: -1 }, Worker: { ...pod, replicas: 2 } })))).toEqual([
      `training-operator/replica-count spec.tfReplicaSpecs.PS.replicas is -1; ${allowed}`,
    ]);
    // Reported once, not also as a Worker count too small for a PyTorchJob.
    expect(lintFindings(stream(pytorch({ Master: replica(1), Worker: replica(-2) })))).toEqual([
      `training-operator/replica-count spec.pytorchReplicaSpecs.Worker.replicas is -2; ${allowed}`,
    ]);
  });

  test('a misspelt replica type is reported as such, without the counts of the type meant', () => {
    const ps = { replicas: 2, template: { spec: { containers: [{ name: 'tensorflow', image: IMAGE }] } } };
    expect([...rulesOf(lintFindings(stream(job('TFJob', 'tfReplicaSpecs', { PS: ps, Workers: ps }))))]).toEqual(['training-operator/replica-type']);
  });

  test('jobs with enough workers have no count findings', () => {
    const docs = [
      STATIC_PYTORCH(), ELASTIC(), TF(),
      job('PaddleJob', 'paddleReplicaSpecs', { Worker: { replicas: 2, template: { spec: { containers: [{ name: 'paddle', image: IMAGE }] } } } }),
    ];
    docs.forEach((d, i) => { d.metadata.name = `train-${i}`; });
    expect(lintFindings(stream(...docs))).toEqual([]);
  });
});

// ---- the numbers that moved into rules: one text for the construct and lint --------------------

describe('the counts of NOT_YET_IN_LINT that rules now read: the construct\'s text is the rule\'s', () => {
  const chart = () => new Chart(Testing.app(), 'test');
  const wholeFrom1 = WHOLE_NUMBER_1_OR_MORE;

  test('training-operator/nproc-per-node: a PyTorchJob\'s nprocPerNode of 0', () => {
    expect(() => new DistributedPyTorch(chart(), 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 1, nprocPerNode: NprocPerNode.of(0) }))
      .toThrow(`test/res: nprocPerNode is 0; ${wholeFrom1}`);
    const d = STATIC_PYTORCH();
    d.spec.nprocPerNode = '0';
    expect(lintFindings(stream(d))).toEqual([`training-operator/nproc-per-node spec.nprocPerNode is "0"; ${wholeFrom1}`]);
    // The words torchrun reads, and whole numbers from 1, are not this rule's.
    for (const ok of ['auto', 'gpu', 'cpu', '1', '8']) {
      d.spec.nprocPerNode = ok;
      expect(lintFindings(stream(d))).toEqual([]);
    }
  });

  test('training-operator/mpi-slots: an MPIJob\'s slotsPerWorker of 0 (and -np is then not judged against no slots)', () => {
    expect(() => new MpiAllReduce(chart(), 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2, slotsPerWorker: 0 }))
      .toThrow(`test/res: slotsPerWorker is 0; ${wholeFrom1}`);
    const d = mpi({ command: ['mpirun', '-np', '4', 'python', 'train.py'] }, 2, { slotsPerWorker: 2 });
    expect(lintFindings(stream(d))).toEqual([]);
    d.spec.slotsPerWorker = 0;
    expect(lintFindings(stream(d))).toEqual([`training-operator/mpi-slots spec.slotsPerWorker is 0; ${wholeFrom1}`]);
  });

  test('trainer/counts: a TrainJob\'s numNodes and numProcPerNode below 1', () => {
    const runtime = TrainingRuntimeRef.cluster('torch-distributed');
    expect(() => new TrainJob(chart(), 'res', { metadata: { name: 'tune' }, runtime, numNodes: 0 })).toThrow(`test/res: numNodes is 0; ${wholeFrom1}`);
    expect(() => new TrainJob(chart(), 'res', { metadata: { name: 'tune' }, runtime, numProcPerNode: -1 })).toThrow(`test/res: numProcPerNode is -1; ${wholeFrom1}`);
    const d: any = TRAIN_JOB();
    d.spec.trainer = { numNodes: 0, numProcPerNode: -1 };
    expect(lintFindings(stream(d))).toEqual([
      `trainer/counts spec.trainer.numNodes is 0; ${wholeFrom1}`,
      `trainer/counts spec.trainer.numProcPerNode is -1; ${wholeFrom1}`,
    ]);
    d.spec.trainer = { numNodes: 1, numProcPerNode: 1 };
    expect(lintFindings(stream(d))).toEqual([]);
  });

  test('trainer/counts and trainer/ssh-auth-mount-path: a runtime\'s numNodes, MPI slots and SSH path', () => {
    const build = (numNodes: number, slotsPerWorker: number, sshAuthMountPath: string) => () => new TrainingRuntime(chart(), 'rt', {
      metadata: { name: 'mpi' }, image: IMAGE, numNodes, mlPolicy: MlPolicy.mpi({ slotsPerWorker, sshAuthMountPath }),
    });
    expect(build(0, 2, '/home/mpiuser/.ssh')).toThrow(`test/rt: numNodes is 0; ${wholeFrom1}`);
    expect(build(2, 0, '/home/mpiuser/.ssh')).toThrow(`test/rt: mlPolicy.mpi.slotsPerWorker is 0; ${wholeFrom1}`);
    const sshText = 'expected a directory for the SSH keys such as /home/mpiuser/.ssh (the Trainer mounts them there, and Kubernetes refuses an empty mount path)';
    expect(build(2, 2, '')).toThrow(`test/rt: mlPolicy.mpi.sshAuthMountPath is ""; ${sshText}`);
    // A relative path is mounted under "/" by the kubelet, which may be the image user's home: kept as given.
    expect(build(2, 2, '.ssh')).not.toThrow();
    const d = MPI_RUNTIME();
    Object.assign(d.spec.mlPolicy, { numNodes: 0 });
    Object.assign(d.spec.mlPolicy.mpi, { numProcPerNode: 0, sshAuthMountPath: '' });
    expect(lintFindings(stream(d))).toEqual([
      `trainer/counts spec.mlPolicy.numNodes is 0; ${wholeFrom1}`,
      `trainer/counts spec.mlPolicy.mpi.numProcPerNode is 0; ${wholeFrom1}`,
      `trainer/ssh-auth-mount-path spec.mlPolicy.mpi.sshAuthMountPath is ""; ${sshText}`,
    ]);
    d.spec.mlPolicy.mpi.sshAuthMountPath = '.ssh';
    expect(lintFindings(stream(d)).filter(f => f.startsWith('trainer/ssh'))).toEqual([]);
  });

  test('training-operator/gang-min-available: a gang larger than the job, one message at synth (naming the prop) and in lint', () => {
    const allowed = 'expected at most the job\'s 3 pods, or the group can never be scheduled';
    const build = (c: Chart) => new DistributedPyTorch(c, 'res', { metadata: { name: 'train' }, image: IMAGE, workers: 2, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: 4 } });
    expect(synthErrors(build)).toBe(`${REPORT}  [test/res] spec.runPolicy.schedulingPolicy.minAvailable (gangScheduling.minAvailable) is 4; ${allowed}`);
    const doc = build(chart()).apiObject.toJson();
    expect(lintFindings(stream(doc))).toEqual([`training-operator/gang-min-available spec.runPolicy.schedulingPolicy.minAvailable is 4; ${allowed}`]);
    const d = STATIC_PYTORCH();
    d.spec.runPolicy = { schedulingPolicy: { minAvailable: 3 } };
    expect(lintFindings(stream(d))).toEqual([]);
    d.spec.runPolicy.schedulingPolicy.minAvailable = 4;
    expect(lintFindings(stream(d))).toEqual([`training-operator/gang-min-available spec.runPolicy.schedulingPolicy.minAvailable is 4; ${allowed}`]);
  });
});

// ---- the WorkspaceKind checks that moved into the notebooks rules ------------------------------

describe('a WorkspaceKind\'s probe, activity rules and home mount: the construct reports through the rules', () => {
  const kindWith = (props: Partial<WorkspaceKindProps>, change?: (k: WorkspaceKind) => void) => (c: Chart) => {
    const k = new WorkspaceKind(c, 'kind', { ...JUPYTERLAB_KIND, ...props });
    k.addImageConfig('scipy', SCIPY_IMAGE);
    k.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
    change?.(k);
    return k;
  };
  const lintOf = (build: (c: Chart) => WorkspaceKind) => lintFindings(stream(build(new Chart(Testing.app(), 'test')).apiObject.toJson()));
  const rules = (...r: ActivityRule[]) => r;
  const hours = (n: number, extra: Partial<ActivityRule> = {}): ActivityRule => ({ inactiveFor: Duration.hours(n), ...extra });

  test('notebooks/activity-probe: a Jupyter probe on a port the kind does not declare', () => {
    const build = kindWith({ activityProbe: ActivityProbe.jupyter('lab') });
    const allowed = 'expected a port the kind declares: "jupyterlab"';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.podTemplate.activityProbe.jupyter.portId (activityProbe) is "lab"; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/activity-probe spec.podTemplate.activityProbe.jupyter.portId is "lab"; ${allowed}`]);
    expect(lintOf(kindWith({ activityProbe: ActivityProbe.jupyter('jupyterlab') }))).toEqual([]);
  });

  test('notebooks/activity-probe: a script whose first line is no shebang the webhook accepts; the construct stops at once on a missing #!', () => {
    const allowed = 'expected a script that starts with a shebang such as "#!/usr/bin/env bash"';
    expect(() => kindWith({ activityProbe: ActivityProbe.script('echo hi\n') })(new Chart(Testing.app(), 'test')))
      .toThrow(`test/kind: activityProbe.script is "echo hi"; ${allowed}`);
    // "#!" with no interpreter passes the construct's prefix check; the webhook refuses it, so the rule does, at synth too.
    const bare = kindWith({ activityProbe: ActivityProbe.script('#!\necho hi\n') });
    expect(synthErrors(bare)).toBe(`${REPORT}  [test/kind] spec.podTemplate.activityProbe.podExec.script (activityProbe) is "#!"; ${allowed}`);
    const long = kindWith({ activityProbe: ActivityProbe.script(`#!/bin/${'x'.repeat(260)}\necho hi\n`) });
    expect(lintOf(long)).toEqual(['notebooks/activity-probe spec.podTemplate.activityProbe.podExec.script is "267 characters"; '
      + 'expected a shebang line of at most 255 characters (what the kernel reads)']);
    expect(lintOf(kindWith({ activityProbe: ActivityProbe.script('#!/usr/bin/env bash -e\r\necho hi\n') }))).toEqual([]);
  });

  test('notebooks/activity-rules: a rule that pauses workspaces on a kind without a probe', () => {
    const build = kindWith({ activityRules: rules(hours(4)) });
    const allowed = 'expected an activityProbe on the kind; without one the controller cannot tell inactivity and rejects pausing rules';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.activityRules[0].effect.pauseWorkspace (activityRules) is true; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/activity-rules spec.activityRules[0].effect.pauseWorkspace is true; ${allowed}`]);
    // A rule that does not pause needs no probe.
    expect(lintOf(kindWith({ activityRules: rules(hours(4, { pauseWorkspace: false })) }))).toEqual([]);
  });

  test('notebooks/activity-rules: a catch-all rule before another rule that sets pauseWorkspace', () => {
    const probe = ActivityProbe.jupyter('jupyterlab');
    const build = kindWith({ activityProbe: probe, activityRules: rules(hours(4), hours(8, { namespaceSelector: { matchLabels: { team: 'ml' } } })) });
    const allowed = 'expected it to be the last rule; rules are matched in order and the 1 after it could never apply';
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.activityRules[0].match (activityRules) is "a catch-all rule (no selector)"; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/activity-rules spec.activityRules[0].match is "a catch-all rule (no selector)"; ${allowed}`]);
    expect(lintOf(kindWith({ activityProbe: probe, activityRules: rules(hours(8, { namespaceSelector: { matchLabels: { team: 'ml' } } }), hours(4)) }))).toEqual([]);
    // The CRD requires pauseWorkspace on every rule (library/schema), so every rule after a catch-all counts.
  });

  test('notebooks/home-mount: an extra volume mounted at the home path, which the controller would skip', () => {
    const build = kindWith({}, k => k.mount('/home/jovyan', kplus.Volume.fromEmptyDir(k, 'cache', 'cache')));
    const allowed = HOME_MOUNT_TAKEN;
    expect(synthErrors(build)).toBe(`${REPORT}  [test/kind] spec.podTemplate.extraVolumeMounts[0].mountPath is "/home/jovyan"; ${allowed}`);
    expect(lintOf(build)).toEqual([`notebooks/home-mount spec.podTemplate.extraVolumeMounts[0].mountPath is "/home/jovyan"; ${allowed}`]);
    expect(lintOf(kindWith({}, k => k.mount('/home/jovyan/cache', kplus.Volume.fromEmptyDir(k, 'cache', 'cache'))))).toEqual([]);
  });
});

// ---- the Kueue topology annotations, now read by kueue/topology -----------------------------------

describe('kueue/topology: the podset topology annotations Kueue\'s webhook judges, with the construct\'s texts', () => {
  const KEY = 'kueue.x-k8s.io/podset-';
  const withWorkerAnnotations = (annotations: Record<string, string>) => {
    const d = STATIC_PYTORCH();
    d.spec.pytorchReplicaSpecs.Worker.template.metadata = { annotations };
    return lintFindings(stream(d));
  };
  const at = (key: string) => `spec.pytorchReplicaSpecs.Worker.template.metadata.annotations["${KEY}${key}"]`;

  test('the construct refuses a level that is no label key at once; lint finds it in the annotation', () => {
    expect(() => new DistributedPyTorch(new Chart(Testing.app(), 'test'), 'res', {
      metadata: { name: 'train' }, image: IMAGE, workers: 2, topology: Topology.required('rack block'),
    })).toThrow('test/res: topology.level is "rack block"; expected a node label key such as "cloud.provider.com/topology-block": ');
    const [found] = withWorkerAnnotations({ [`${KEY}required-topology`]: 'rack block' });
    expect(found).toMatch(new RegExp(`^kueue/topology ${at('required-topology').replace(/[[\].]/g, m => `\\${m}`)} is "rack block"; expected a node label key such as "cloud.provider.com/topology-block": `));
  });

  test('slices, groups and the one-mode rule, as ValidateTASPodSetRequest has them', () => {
    const level = 'cloud.provider.com/topology-block';
    expect(withWorkerAnnotations({ [`${KEY}required-topology`]: level, [`${KEY}slice-required-topology`]: level, [`${KEY}slice-size`]: '2' })).toEqual([]);
    expect(withWorkerAnnotations({ [`${KEY}slice-required-topology`]: level, [`${KEY}slice-size`]: '0' })).toEqual([
      `kueue/topology ${at('slice-size')} is "0"; ${WHOLE_NUMBER_1_OR_MORE} pods per slice`,
    ]);
    expect(withWorkerAnnotations({ [`${KEY}slice-size`]: '2' })).toEqual([
      `kueue/topology ${at('slice-size')} is "2"; expected it together with ${KEY}slice-required-topology`,
    ]);
    expect(withWorkerAnnotations({ [`${KEY}unconstrained-topology`]: 'true', [`${KEY}group-name`]: 'g' })).toEqual([
      `kueue/topology ${at('group-name')} is "g"; expected a non-empty group name with a required or preferred topology (Kueue groups only those)`,
    ]);
    expect(withWorkerAnnotations({ [`${KEY}required-topology`]: level, [`${KEY}slice-required-topology`]: level, [`${KEY}slice-size`]: '2', [`${KEY}group-name`]: 'g' }))
      .toEqual([`kueue/topology ${at('group-name')} is "g"; expected no podset group together with slices: Kueue refuses the two on one role`]);
    expect(withWorkerAnnotations({ [`${KEY}preferred-topology`]: level, [`${KEY}group-name`]: '42' })).toEqual([
      `kueue/topology ${at('group-name')} is "42"; expected a group name that is not a number`,
    ]);
    expect(withWorkerAnnotations({ [`${KEY}required-topology`]: level, [`${KEY}unconstrained-topology`]: 'yes' })).toEqual([
      `kueue/topology spec.pytorchReplicaSpecs.Worker.template.metadata.annotations is ["${KEY}required-topology", "${KEY}unconstrained-topology"]; `
      + `expected at most one of ${KEY}required-topology, ${KEY}preferred-topology and ${KEY}unconstrained-topology`,
      `kueue/topology ${at('unconstrained-topology')} is "yes"; expected "true" or "false"`,
    ]);
  });
});
