import { ruleVersions } from '../../src/rules/catalogue';
import { describe as describeFinding } from '../../src/rules/finding';
import { kubernetesFindings } from '../../src/rules/kubernetes';
import { appFindings } from '../../src/rules/rule-sets';
import { SUPPORT_WINDOW } from '../../src/rules/support-window';
import { FULL_WINDOW, RuleVersions, TargetError, TargetInput, parseTargetText, ruleApplies, targetFromValue, targetWindow, versionsText } from '../../src/rules/target';
import { after, compareVersions, parseVersion } from '../../src/util/versions';

/** The support window, targets, and the rules of Trainer v2.4.0 (rules/trainer/v2-4.ts). */
const API = 'trainer.kubeflow.org/v1alpha1';
const LABEL = 'trainer.kubeflow.org/trainjob-ancestor-step';

function mpiRuntime(jobs: any[]): any {
  return {
    apiVersion: API,
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'mpi' },
    spec: { mlPolicy: { numNodes: 2, mpi: { numProcPerNode: 1, sshAuthMountPath: '/home/mpiuser/.ssh' } }, template: { spec: { replicatedJobs: jobs } } },
  };
}
const rjob = (name: string, step: string | undefined, container: any) => ({
  name, template: { ...(step ? { metadata: { labels: { [LABEL]: step } } } : {}), spec: { template: { spec: { containers: [container] } } } },
});
const trainJob = (trainer: any) => ({ apiVersion: API, kind: 'TrainJob', metadata: { name: 'job', namespace: 'ml' }, spec: { runtimeRef: { name: 'mpi' }, trainer } });

const applies = (id: string, target?: Record<string, string>) => ruleApplies(ruleVersions(id)!, targetWindow(target, '--target'));
const app = (...docs: any[]) => appFindings(docs.map((doc, i) => ({ path: `chart/${i}`, doc }))).map(f => `${f.finding.rule} ${describeFinding(f.finding)}`);
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TargetError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('versions', () => {
  test('semver-ish texts: with or without v, one to three parts; a line is a range', () => {
    expect(parseVersion('v0.19.2')?.parts).toEqual([0, 19, 2]);
    expect(parseVersion('1.35')?.parts).toEqual([1, 35]);
    expect(parseVersion('v2.4.0-rc.1')).toBeUndefined();
    expect(parseVersion('8b61057')).toBeUndefined();
    expect(['v0.20', 'v0.19.2', 'v0.19', '0.15.2'].sort(compareVersions)).toEqual(['0.15.2', 'v0.19', 'v0.19.2', 'v0.20']);
    expect(compareVersions('v2.4', 'v2.4.0')).toBe(0);
    expect(after('v0.19')).toEqual([0, 20]);
    expect(after('v0.19.2')).toEqual([0, 19, 3]);
  });

  test('the window table: one row per upstream, oldest not after newest, every version known is inside', () => {
    expect(SUPPORT_WINDOW.map(u => `${u.id} ${u.oldest}..${u.newest} ${u.versions.map(v => `${v.version}:${v.proof}`).join(',')}`)).toEqual([
      'kubernetes 1.34..1.35 v1.34.4:code,v1.35.0:code',
      'trainingOperator v1.9.0..v1.9.4 v1.9.0:code,v1.9.4:code',
      'jobset v0.11.1..v0.12.0 v0.11.1:notes,v0.12.0:code',
      'trainer v2.2.0..v2.4.0 v2.2.0:code,v2.3.0:code,v2.4.0:notes',
      'notebooks 8b61057..8b61057 8b61057:crds',
      'kueue v0.15.2..v0.20 v0.15.2:code,v0.19.2:code,v0.20:notes',
    ]);
    for (const u of SUPPORT_WINDOW) {
      for (const v of u.versions) expect(() => targetWindow({ [u.id]: v.version }, '--target')).not.toThrow();
    }
  });
});

describe('targets', () => {
  test('text and objects', () => {
    expect(parseTargetText('kueue=v0.19, trainer=v2.3', '--target')).toEqual({ kueue: 'v0.19', trainer: 'v2.3' });
    expect(parseTargetText('{"kubernetes":"1.35"}', '--target')).toEqual({ kubernetes: '1.35' });
    expect(targetFromValue({ jobset: 'v0.12' }, 'context cdk8s-kubeflow/target')).toEqual({ jobset: 'v0.12' });
    expect(targetWindow(undefined, '--target')).toBe(FULL_WINDOW);
    expect(targetWindow({ kueue: 'v0.19' }, '--target').kueue).toEqual({ from: [0, 19], before: [0, 20] });
    // A line reaching past the window is cut to it: Trainer v2.4 is v2.4.0, the newest in the window.
    expect(targetWindow({ trainer: 'v2.4' }, '--target').trainer).toEqual({ from: [2, 4], before: [2, 4, 1] });
  });

  test('errors name the key, the value and the window, never a TypeError', () => {
    expect(errorOf(() => targetWindow({ kueue: 'v0.14' }, '--target')))
      .toBe('--target: kueue is "v0.14"; expected a Kueue version from v0.15.2 to v0.20 (the support window, docs/versions.md)');
    expect(errorOf(() => targetWindow({ trainer: 'latest' }, 'target', true)))
      .toBe('target.trainer is "latest"; expected a Kubeflow Trainer version from v2.2.0 to v2.4.0 (the support window, docs/versions.md)');
    expect(errorOf(() => targetWindow({ notebooks: 'main' }, '--target')))
      .toBe('--target: notebooks is "main"; expected the Kubeflow Notebooks v2 commit 8b61057 (the only one in the support window, docs/versions.md)');
    expect(errorOf(() => parseTargetText('kueue', '--target')))
      .toBe('--target is "kueue"; expected KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3 (keys: kubernetes, trainingOperator, jobset, trainer, notebooks, kueue); "kueue" is not one');
    expect(errorOf(() => parseTargetText('kueu=v0.19', '--target')))
      .toBe('--target: kueu is "v0.19"; expected a key of kubernetes, trainingOperator, jobset, trainer, notebooks, kueue');
    expect(errorOf(() => parseTargetText('kueue=v0.19,kueue=v0.20', '--target')))
      .toBe('--target: kueue is "v0.20"; expected one version per key (it is also "v0.19")');
    expect(errorOf(() => parseTargetText('{"kueue":', '--target')))
      .toMatch(/^--target is "\{\\"kueue\\":"; expected a JSON object of versions \(.*\) or KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3$/);
    expect(errorOf(() => targetFromValue(['kueue=v0.19'], 'context cdk8s-kubeflow/target')))
      .toBe('context cdk8s-kubeflow/target is ["kueue=v0.19"]; expected an object of versions such as {"kueue":"v0.19","trainer":"v2.3"}, or the text kueue=v0.19,trainer=v2.3');
    expect(errorOf(() => targetFromValue({ kueue: 19 }, 'context cdk8s-kubeflow/target')))
      .toBe('context cdk8s-kubeflow/target: kueue is 19; expected a version string such as "v0.20"');
  });

  test('a rule applies where its range meets the window; one across a version needs both sides', () => {
    const window = (t?: TargetInput) => targetWindow(t, '--target');
    const from20: RuleVersions = { upstream: 'kueue', from: 'v0.20' };
    // A range that starts after the newest proven version (v0.19.2) but inside the window (v0.20).
    expect([undefined, { kueue: 'v0.19' }, { kueue: 'v0.20' }, { kueue: 'v0.15.2' }].map(t => ruleApplies(from20, window(t)))).toEqual([true, false, true, false]);
    const before24: RuleVersions = { upstream: 'trainer', before: 'v2.4.0' };
    expect([undefined, { trainer: 'v2.3' }, { trainer: 'v2.4' }].map(t => ruleApplies(before24, window(t)))).toEqual([true, true, false]);
    const across: RuleVersions = { upstream: 'trainer', across: 'v2.4.0' };
    expect([undefined, { trainer: 'v2.3' }, { trainer: 'v2.4' }, { kueue: 'v0.19' }].map(t => ruleApplies(across, window(t)))).toEqual([true, false, false, true]);
    expect(versionsText(from20)).toBe('Kueue v0.20 and later');
    expect(versionsText(before24)).toBe('Kubeflow Trainer before v2.4.0');
    expect(versionsText(across)).toBe('Kubeflow Trainer: while the window holds versions before and from v2.4.0');
  });
});

describe('Trainer v2.4.0', () => {
  test('trainer/replicated-job-name-length: from v2.4.0', () => {
    expect(kubernetesFindings(mpiRuntime([rjob('launcher-of-twenty-one', 'trainer', { name: 'node', image: 'i' })])).map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
      'trainer/replicated-job-name-length spec.template.spec.replicatedJobs[0].name is "launcher-of-twenty-one"; expected at most 20 characters: Trainer v2.4.0 and later refuse a runtime with a longer replicated-job name (the JobSet\'s pod names grow with it); shorten it, or set a target of Trainer before v2.4.0 (trainer=v2.3)',
    ]);
    expect([applies('trainer/replicated-job-name-length'), applies('trainer/replicated-job-name-length', { trainer: 'v2.3' }), applies('trainer/replicated-job-name-length', { trainer: 'v2.4.0' })])
      .toEqual([true, false, true]);
  });

  test('trainer/prte-env: PRTE_MCA_* on an MPI runtime\'s containers and an MPI TrainJob\'s env', () => {
    const rt = mpiRuntime([
      rjob('launcher', 'trainer', { name: 'node', image: 'i', env: [{ name: 'OMPI_X', value: '1' }, { name: 'PRTE_MCA_plm_rsh_agent', value: 'ssh' }] }),
      rjob('node', undefined, { name: 'node', image: 'i' }),
    ]);
    expect(kubernetesFindings(rt).map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
      'trainer/prte-env spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].env[1].name is "PRTE_MCA_plm_rsh_agent"; expected a name outside PRTE_MCA_*: Trainer v2.4.0 and later set those variables themselves on the jobs of this MPI runtime (Open MPI 5); rename it, or set a target of Trainer before v2.4.0 (trainer=v2.3)',
    ]);
    // Not on a torch runtime: only the MPI plugin sets them.
    const torch = { ...rt, spec: { ...rt.spec, mlPolicy: { torch: {} } } };
    expect(kubernetesFindings(torch).filter(f => f.rule === 'trainer/prte-env')).toEqual([]);
    const clean = mpiRuntime([rjob('launcher', 'trainer', { name: 'node', image: 'i' }), rjob('node', undefined, { name: 'node', image: 'i' })]);
    expect(app(clean, trainJob({ env: [{ name: 'PRTE_MCA_x', value: '1' }] }))).toEqual([
      'trainer/prte-env spec.trainer.env[0].name is "PRTE_MCA_x"; expected a name outside PRTE_MCA_*: Trainer v2.4.0 and later set those variables themselves on a job of the MPI runtime "mpi" (Open MPI 5); rename it, or set a target of Trainer before v2.4.0 (trainer=v2.3)',
    ]);
    expect([applies('trainer/prte-env'), applies('trainer/prte-env', { trainer: 'v2.3' })]).toEqual([true, false]);
  });

  test('trainer/mpi-launcher-image: a launcher without the trainer label whose image is not the job\'s, while the window spans v2.3 and v2.4', () => {
    const rt = mpiRuntime([rjob('launcher', undefined, { name: 'node', image: 'team/launcher:1' }), rjob('node', 'trainer', { name: 'node', image: 'team/train:1' })]);
    expect(app(rt, trainJob({ image: 'team/train:2' }))).toEqual([
      'trainer/mpi-launcher-image spec.trainer.image is "team/train:2"; expected the image of the launcher of the MPI runtime "mpi" ("team/launcher:1") while the target spans Trainer v2.3 and v2.4: '
      + 'Trainer before v2.4.0 runs the launcher from the runtime\'s image "team/launcher:1", v2.4.0 and later from the TrainJob\'s "team/train:2"; use the same image, or set the target to one of them (trainer=v2.3 or trainer=v2.4)',
    ]);
    expect(app(rt, trainJob({ image: 'team/launcher:1' }))).toEqual([]);
    expect([applies('trainer/mpi-launcher-image'), applies('trainer/mpi-launcher-image', { trainer: 'v2.3' }), applies('trainer/mpi-launcher-image', { trainer: 'v2.4' })]).toEqual([true, false, false]);
  });

  test('trainer/mpi-node-image: the nodes keep the runtime\'s image before v2.4.0 only', () => {
    const rt = mpiRuntime([rjob('launcher', 'trainer', { name: 'node', image: 'team/train:1' }), rjob('node', undefined, { name: 'node', image: 'team/train:1' })]);
    expect(app(rt, trainJob({ image: 'team/train:2' }))).toEqual([
      'trainer/mpi-node-image spec.trainer.image is "team/train:2"; expected none on the mpi runtime "mpi": Trainer v2.3.0 sets the TrainJob\'s image only on the "launcher" job (the one with the trainer step label), and the "node" job that runs the ranks keeps the runtime\'s image; give the runtime the image instead (one runtime per image)',
    ]);
    expect([applies('trainer/mpi-node-image'), applies('trainer/mpi-node-image', { trainer: 'v2.3' }), applies('trainer/mpi-node-image', { trainer: 'v2.4' })]).toEqual([true, true, false]);
  });
});
