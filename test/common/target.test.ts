import { App, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { MlPolicy, PlatformDefaults, TargetVersions, TrainJob, TrainingRuntime } from '../../src';
import { REPORT } from '../harness';

/**
 * A target (the versions the cluster runs) at synth: the context key `cdk8s-kubeflow/target` and
 * `PlatformDefaults.target` narrow the support window, so a rule of versions outside it says
 * nothing; without one, the whole window applies (docs/versions.md).
 */
const TARGET = 'cdk8s-kubeflow/target';
const PRTE = '[test/job] spec.trainer.env[0].name (env) is "PRTE_MCA_plm_rsh_agent"; expected a name outside PRTE_MCA_*: Trainer v2.4.0 and later set those variables themselves '
  + 'on a job of the MPI runtime "mpi" (Open MPI 5); rename it, or set a target of Trainer before v2.4.0 (trainer=v2.3)';
const NODE_IMAGE = '[test/job] spec.trainer.image (image) is "team/mpi:2"; expected none on the mpi runtime "mpi": Trainer v2.3.0 sets the TrainJob\'s image only on the "launcher" job '
  + '(the one with the trainer step label), and the "node" job that runs the ranks keeps the runtime\'s image; give the runtime the image instead (one runtime per image)';

/** An MPI runtime and a job on it; `job` adds the job's own props. */
function mpiJob(scope: Construct, job: { env?: { [name: string]: kplus.EnvValue }; image?: string }): void {
  const rt = new TrainingRuntime(scope, 'mpi', { metadata: { name: 'mpi' }, mlPolicy: MlPolicy.mpi({ slotsPerWorker: 1 }), image: 'team/mpi:1', command: ['/usr/sbin/sshd'] });
  new TrainJob(scope, 'job', { metadata: { name: 'job' }, runtime: rt.ref, command: ['mpirun'], ...job });
}
const prteJob = (scope: Construct) => mpiJob(scope, { env: { PRTE_MCA_plm_rsh_agent: kplus.EnvValue.fromValue('ssh') } });

/** The error lines of `app.synth()`, or [] when it synthesizes. */
function errors(build: (app: App, chart: Chart) => void, context?: { [key: string]: unknown }): string[] {
  const app = Testing.app();
  for (const [key, value] of Object.entries(context ?? {})) app.node.setContext(key, value);
  build(app, new Chart(app, 'test', { namespace: 'ml' }));
  try {
    app.synth();
    return [];
  } catch (e) {
    return (e as Error).message.replace(REPORT, '').split('\n').map(l => l.trim()).filter(Boolean);
  }
}

function thrown(f: () => void): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('a rule of Trainer v2.4.0 and later (trainer/prte-env) at synth', () => {
  test('without a target: the whole window, v2.4.0 included', () => {
    expect(errors((_app, chart) => prteJob(chart))).toEqual([PRTE]);
  });

  test('the context key as an object or as text: Trainer v2.3 drops it; v2.4 keeps it', () => {
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: { trainer: 'v2.3' } })).toEqual([]);
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: 'kueue=v0.19,trainer=v2.3' })).toEqual([]);
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: 'trainer=v2.4' })).toEqual([PRTE]);
    // A target of other upstreams leaves the Trainer's window whole.
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: { kueue: 'v0.19' } })).toEqual([PRTE]);
  });

  test('a chart\'s context, and PlatformDefaults: the nearest scope wins, key by key', () => {
    expect(errors((_app, chart) => {
      chart.node.setContext(TARGET, { trainer: 'v2.3' });
      prteJob(chart);
    })).toEqual([]);
    expect(errors((_app, chart) => {
      PlatformDefaults.set(chart, { target: { trainer: 'v2.3' } });
      prteJob(chart);
    })).toEqual([]);
    // The app says v2.3; the team's scope says v2.4, and it is nearer.
    expect(errors((app, chart) => {
      PlatformDefaults.set(app, { target: { trainer: 'v2.3', kueue: 'v0.19' } });
      const team = new Construct(chart, 'team');
      PlatformDefaults.set(team, { target: { trainer: 'v2.4' } });
      prteJob(team);
    })).toEqual([PRTE.replace('[test/job]', '[test/team/job]')]);
    // Defaults over the context key.
    expect(errors((_app, chart) => {
      PlatformDefaults.set(chart, { target: { trainer: 'v2.4' } });
      prteJob(chart);
    }, { [TARGET]: { trainer: 'v2.3' } })).toEqual([PRTE]);
    expect(PlatformDefaults.of(new Construct(Testing.app(), 'x'))).not.toHaveProperty('target.trainer');
  });

  test('on an MPI runtime\'s containers too: each container that has it, by its env prop', () => {
    const build = (scope: Construct) => new TrainingRuntime(scope, 'mpi', {
      metadata: { name: 'mpi' },
      mlPolicy: MlPolicy.mpi({ slotsPerWorker: 1 }),
      image: 'team/mpi:1',
      command: ['/usr/sbin/sshd'],
      env: { PRTE_MCA_plm_rsh_agent: kplus.EnvValue.fromValue('ssh') },
    });
    const allowed = 'expected a name outside PRTE_MCA_*: Trainer v2.4.0 and later set those variables themselves on the jobs of this MPI runtime (Open MPI 5); '
      + 'rename it, or set a target of Trainer before v2.4.0 (trainer=v2.3)';
    // The nodes' env reaches the launcher too (it takes the nodes' options).
    expect(errors((_app, chart) => build(chart))).toEqual([0, 1].map(i =>
      `[test/mpi] spec.template.spec.replicatedJobs[${i}].template.spec.template.spec.containers[0].env[0].name is "PRTE_MCA_plm_rsh_agent"; ${allowed}`));
    expect(errors((_app, chart) => build(chart), { [TARGET]: 'trainer=v2.3' })).toEqual([]);
  });

  test('a strict form only the versions before v2.4.0 need (trainer/mpi-node-image) goes with a target of v2.4', () => {
    const imageJob = (scope: Construct) => mpiJob(scope, { image: 'team/mpi:2' });
    expect(errors((_app, chart) => imageJob(chart))).toEqual([NODE_IMAGE]);
    expect(errors((_app, chart) => imageJob(chart), { [TARGET]: 'trainer=v2.3' })).toEqual([NODE_IMAGE]);
    expect(errors((_app, chart) => imageJob(chart), { [TARGET]: 'trainer=v2.4' })).toEqual([]);
  });
});

describe('a wrong target', () => {
  test('in the context: the key, the value and the window', () => {
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: { kueue: 'v0.14' } }))
      .toEqual(['context cdk8s-kubeflow/target: kueue is "v0.14"; expected a Kueue version from v0.15.2 to v0.20 (the support window, docs/versions.md)']);
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: 'trainer v2.3' }))
      .toEqual(['context cdk8s-kubeflow/target is "trainer v2.3"; expected KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3 (keys: kubernetes, trainingOperator, jobset, trainer, notebooks, kueue); "trainer v2.3" is not one']);
    expect(errors((_app, chart) => prteJob(chart), { [TARGET]: 3 }))
      .toEqual(['context cdk8s-kubeflow/target is 3; expected an object of versions such as {"kueue":"v0.19","trainer":"v2.3"}, or the text kueue=v0.19,trainer=v2.3']);
  });

  test('in PlatformDefaults: refused where it is set, with the scope\'s path', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(thrown(() => PlatformDefaults.set(chart, { target: { trainer: 'v2.5' } })))
      .toBe('test/KubeflowPlatformDefaults: target.trainer is "v2.5"; expected a Kubeflow Trainer version from v2.2.0 to v2.4.0 (the support window, docs/versions.md)');
    expect(thrown(() => PlatformDefaults.set(chart, { target: { kubernetes: '1.33' } })))
      .toBe('test/KubeflowPlatformDefaults: target.kubernetes is "1.33"; expected a Kubernetes version from 1.34 to 1.35 (the support window, docs/versions.md)');
    PlatformDefaults.set(chart, { target: { trainer: 'v2.3' } });
    // A conflicting second call is reported at synth; the first value stays.
    PlatformDefaults.set(chart, { target: { trainer: 'v2.4' } });
    PlatformDefaults.set(chart, { target: { kueue: 'v0.19' } });
    expect(PlatformDefaults.of(chart).target).toEqual({ trainer: 'v2.3', kueue: 'v0.19' });
    expect(thrown(() => (chart.node.root as App).synth()))
      .toBe(`${REPORT}  [test/KubeflowPlatformDefaults] target["trainer"] is "v2.4"; expected the value an earlier PlatformDefaults.set gave this scope ("v2.3"), or none`);
  });

  test('a value of the wrong type: the boundary\'s message, never a TypeError', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(thrown(() => PlatformDefaults.set(chart, { target: { kueue: 19 } as unknown as TargetVersions })))
      .toBe('test: props.target.kueue is 19; expected a string');
    expect(thrown(() => PlatformDefaults.set(chart, { target: { kueu: 'v0.19' } as unknown as TargetVersions })))
      .toBe('test: props.target.kueu is "v0.19"; expected no such field in TargetVersions: did you mean "kueue"?');
  });
});
