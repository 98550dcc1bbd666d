/**
 * Secrets stay in Secrets. A user passes Secret references to every construct (one value as an
 * environment variable, a whole Secret as envFrom through `mainContainer.env.copyFrom`, a Secret
 * volume, a Workspace's secrets); the Secret itself, defined in the same app with a sentinel in its
 * stringData, is the only manifest that may contain the sentinel, in plain text or base64.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  DistributedJax, DistributedPaddle, DistributedPyTorch, DistributedXGBoost, MpiAllReduce, PaddleMode, ParameterServerTF, TrainingJob,
  Workspace, WorkspaceClaim, WorkspaceKind,
} from '../../src';
import { JUPYTERLAB_KIND, SCIPY_IMAGE } from '../harness/notebook-fixtures';

const SENTINEL = 'sentinel-s3cr3t-7f4e9c1a';
const IMAGE = 'registry.example.com/train:1.0';

interface Secrets {
  /** A Secret of the app, with the sentinel as the value of "token". */
  readonly secret: kplus.Secret;
  /** One value of it, for an environment variable. */
  readonly env: kplus.EnvValue;
}

function secretsIn(chart: Chart): Secrets {
  const secret = new kplus.Secret(chart, 'credentials', { metadata: { name: 'credentials' }, stringData: { token: SENTINEL } });
  secret.addStringData('password', `${SENTINEL}-password`);
  return { secret, env: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }) };
}

/** Every way a job takes a Secret: job and role env, env added later, envFrom, a volume, a sidecar. */
function useInJob(job: TrainingJob, chart: Chart, s: Secrets): void {
  job.addEnv('LATE_TOKEN', s.env);
  const groups = job.replicaGroups;
  for (const group of groups) group.mainContainer.env.copyFrom(kplus.Env.fromSecret(s.secret));
  job.mount('/etc/credentials', kplus.Volume.fromSecret(chart, 'credentials-volume', s.secret), { readOnly: true });
  groups[groups.length - 1].addContainer({ name: 'uploader', image: 'busybox:1.36', envVariables: { UPLOAD_TOKEN: s.env } });
}

const TRAIN = { metadata: { name: 'train' }, image: IMAGE };

const BUILDS: Array<[string, (chart: Chart, s: Secrets) => void]> = [
  ['DistributedPyTorch', (c, s) => useInJob(new DistributedPyTorch(c, 'job', { ...TRAIN, workers: 2, env: { HF_TOKEN: s.env }, worker: { env: { WORKER_TOKEN: s.env } } }), c, s)],
  ['ParameterServerTF', (c, s) => useInJob(new ParameterServerTF(c, 'job', { ...TRAIN, chief: { env: { CHIEF_TOKEN: s.env } }, parameterServers: 1, workers: 2, env: { HF_TOKEN: s.env } }), c, s)],
  ['MpiAllReduce', (c, s) => useInJob(new MpiAllReduce(c, 'job', {
    ...TRAIN, workers: 2, trainingCommand: ['python', 'train.py'], env: { HF_TOKEN: s.env }, launcher: { env: { LAUNCHER_TOKEN: s.env } },
  }), c, s)],
  ['DistributedXGBoost', (c, s) => useInJob(new DistributedXGBoost(c, 'job', { ...TRAIN, workers: 2, env: { HF_TOKEN: s.env }, master: { env: { MASTER_TOKEN: s.env } } }), c, s)],
  ['DistributedPaddle', (c, s) => useInJob(new DistributedPaddle(c, 'job', {
    ...TRAIN, mode: PaddleMode.PARAMETER_SERVER, workers: 2, env: { HF_TOKEN: s.env }, parameterServer: { env: { PS_TOKEN: s.env } },
  }), c, s)],
  ['DistributedJax', (c, s) => useInJob(new DistributedJax(c, 'job', { ...TRAIN, workers: 2, env: { HF_TOKEN: s.env } }), c, s)],
  ['WorkspaceKind', (c, s) => { kindIn(c, s); }],
  ['Workspace', (c, s) => {
    const ws = new Workspace(c, 'ws', {
      metadata: { name: 'alice' },
      kind: kindIn(c, s),
      home: WorkspaceClaim.newClaim({ storage: Size.gibibytes(10) }),
      secrets: [{ mountPath: '/secrets/credentials', secret: s.secret, defaultMode: 0o600 }],
    });
    ws.addSecret('/secrets/again', s.secret);
  }],
];

function kindIn(c: Chart, s: Secrets): WorkspaceKind {
  const kind = new WorkspaceKind(c, 'kind', {
    ...JUPYTERLAB_KIND,
    env: { HF_TOKEN: s.env },
  });
  kind.addEnv('LATE_TOKEN', s.env);
  kind.mount('/etc/credentials', kplus.Volume.fromSecret(c, 'credentials-volume', s.secret));
  kind.addImageConfig('scipy', SCIPY_IMAGE);
  kind.addPodConfig('small');
  return kind;
}

/** Every string in a manifest, with where it is. */
function strings(node: any, at = ''): Array<[string, string]> {
  if (typeof node === 'string') return [[at, node]];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => strings(v, at ? `${at}.${k}` : k));
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const FORMS = [SENTINEL, b64(SENTINEL), b64(`${SENTINEL}-password`)];

describe.each(BUILDS)('%s', (construct, build) => {
  const chart = new Chart(Testing.app(), 'test');
  build(chart, secretsIn(chart));
  const docs = Testing.synth(chart);
  const secrets = docs.filter(d => d.kind === 'Secret');
  const others = docs.filter(d => d.kind !== 'Secret');

  test('the sentinel is in the Secret, so the search can see it', () => {
    expect(secrets).toHaveLength(1);
    expect(JSON.stringify(secrets[0])).toContain(SENTINEL);
  });

  test('no other manifest holds the sentinel, in plain text or base64', () => {
    expect(others.length).toBeGreaterThan(0);
    const leaks = others.flatMap(d => strings(d).filter(([, v]) => FORMS.some(f => v.includes(f))).map(([at]) => `${d.kind}/${d.metadata?.name}: ${at}`));
    expect(leaks).toEqual([]);
    // Keys can leak too (a value used as a map key).
    expect(others.filter(d => FORMS.some(f => JSON.stringify(d).includes(f))).map(d => d.kind)).toEqual([]);
  });

  test('the Secret is referenced by name instead', () => {
    const text = JSON.stringify(others);
    expect(text).toContain('"credentials"');
    if (construct === 'Workspace') {
      expect(text).toContain('"secretName":"credentials"');
    } else {
      expect(text).toContain('"secretKeyRef":{"key":"token","name":"credentials"}');
    }
    if (!construct.startsWith('Workspace')) expect(text).toContain('"secretRef":{"name":"credentials"}');
  });
});

test('the search finds a secret copied into a literal value, so a leak would not go unnoticed', () => {
  const chart = new Chart(Testing.app(), 'test');
  secretsIn(chart);
  new DistributedJax(chart, 'job', { ...TRAIN, env: { HF_TOKEN: kplus.EnvValue.fromValue(SENTINEL) } });
  const job = Testing.synth(chart).find(d => d.kind === 'JAXJob');
  expect(strings(job).filter(([, v]) => FORMS.some(f => v.includes(f))).map(([at]) => at))
    .toEqual(['spec.jaxReplicaSpecs.Worker.template.spec.containers.0.env.0.value']);
});
