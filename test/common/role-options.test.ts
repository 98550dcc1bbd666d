import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  ClusterTrainingRuntime, MlPolicy, MpiAllReduce, NcclDebug, NodeHealth, ReplicaOptions, RestartPolicy, Topology,
} from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';

/*
 * A role's options over the options it inherits mean one thing for a v1 MPIJob's launcher (over
 * the job's) and for an MPI training runtime's launcher (over the nodes'): the same inputs give
 * the same launcher pod, whichever API writes it.
 */

const IMAGE = 'mpioperator/mpi-pi:openmpi';
const JOB_HEALTH = NodeHealth.labelNotIn('health.example.com/verdict', ['bad']);
const LAUNCHER_HEALTH = NodeHealth.avoidHosts(['node-7']);

/** Shared by the job (or the nodes) and overridden for the launcher. */
const INHERITED: ReplicaOptions = {
  image: IMAGE,
  env: { A: kplus.EnvValue.fromValue('1'), B: kplus.EnvValue.fromValue('job') },
  podLabels: { team: 'vision', tier: 'job' },
  nodeSelector: { pool: 'gpu' },
  tolerations: [{ key: 'job', operator: 'Exists' }],
  nodeHealth: [JOB_HEALTH],
  network: { networks: ['ml/fabric-a'] },
};
const LAUNCHER: ReplicaOptions = {
  env: { B: kplus.EnvValue.fromValue('launcher') },
  podLabels: { tier: 'launcher' },
  nodeSelector: { pool: 'cpu' },
  tolerations: [{ key: 'launcher', operator: 'Exists' }],
  nodeHealth: [LAUNCHER_HEALTH],
  network: { nccl: { debug: NcclDebug.INFO } },
};

function synth(build: (chart: Chart) => void): any[] {
  const docs = expectDeterministic(app => build(new Chart(app, 'test', { namespace: 'ml' })));
  expectValidManifests(docs);
  return docs;
}

/** What the merge decides about a launcher pod, without what differs by API (container name, restart policy). */
function merged(template: any): any {
  const spec = template.spec;
  const container = spec.containers[0];
  return {
    env: Object.fromEntries((container.env ?? []).map((e: any) => [e.name, e.value])),
    labels: template.metadata.labels,
    networks: template.metadata.annotations['k8s.v1.cni.cncf.io/networks'],
    nodeSelector: spec.nodeSelector,
    tolerations: spec.tolerations,
    avoided: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
      .map((t: any) => t.matchExpressions.map((e: any) => `${e.key} ${e.operator} ${e.values.join(',')}`)),
  };
}

describe('role options over inherited options: one meaning for v1 jobs and Trainer runtimes', () => {
  const v1 = () => {
    const [job] = synth(chart => new MpiAllReduce(chart, 'job', { metadata: { name: 'pi' }, ...INHERITED, launcher: LAUNCHER }));
    return merged(job.spec.mpiReplicaSpecs.Launcher.template);
  };
  const runtime = () => {
    const [rt] = synth(chart => new ClusterTrainingRuntime(chart, 'rt', {
      metadata: { name: 'mpi' }, mlPolicy: MlPolicy.mpi(), ...INHERITED, launcher: LAUNCHER,
    }));
    const launcher = rt.spec.template.spec.replicatedJobs.find((j: any) => j.name === 'launcher');
    return merged(launcher.template.spec.template);
  };

  test.each([['a v1 MPIJob', v1], ['an MPI training runtime', runtime]])('%s: the launcher adds its nodeHealth to the inherited one, merges maps and network, adds tolerations', (_what, launcherPod) => {
    expect(launcherPod()).toEqual({
      env: { A: '1', B: 'launcher', NCCL_DEBUG: 'INFO' },
      labels: { team: 'vision', tier: 'launcher' },
      networks: 'ml/fabric-a',
      nodeSelector: { pool: 'cpu' },
      tolerations: [{ key: 'job', operator: 'Exists' }, { key: 'launcher', operator: 'Exists' }],
      avoided: [['health.example.com/verdict NotIn bad', 'kubernetes.io/hostname NotIn node-7']],
    });
  });

  test('the two launchers agree', () => {
    expect(runtime()).toEqual(v1());
  });
});

describe('a training runtime refuses the v1-only options it shares with v1 jobs, with the Trainer\'s reason', () => {
  const make = (props: Partial<ConstructorParameters<typeof ClusterTrainingRuntime>[2]>) => () => new ClusterTrainingRuntime(
    new Chart(Testing.app(), 'test'), 'rt', { metadata: { name: 'mpi' }, mlPolicy: MlPolicy.mpi(), image: IMAGE, ...props });
  const POD_RESTART = 'expected none on a training runtime: podRestartPolicy mirrors the restartPolicy of a v1 replica type, '
    + 'and the Trainer has no such policy (it runs each replicated job as a batch Job of a JobSet, and a failed Job fails the TrainJob)';
  const KAI = 'expected no Topology.kai(...) on a training runtime: the KAI scheduler reads its topology annotations '
    + 'from the pods\' top owner (defaultgrouper GetPodGroupMetadata), which is the TrainJob, not the runtime or the JobSet made from it; '
    + 'write them in the TrainJob\'s metadata.annotations (kai.scheduler/topology and its placement annotations)';
  const kai = Topology.kai({ topologyName: 'gpu-fabric', requiredLevel: 'topology.kubernetes.io/zone' });

  test('podRestartPolicy, on the nodes or the launcher', () => {
    expect(make({ podRestartPolicy: RestartPolicy.NEVER })).toThrow(`test/rt: podRestartPolicy is "Never"; ${POD_RESTART}`);
    expect(make({ launcher: { podRestartPolicy: RestartPolicy.ON_FAILURE } })).toThrow(`test/rt: launcher.podRestartPolicy is "OnFailure"; ${POD_RESTART}`);
  });

  test('Topology.kai(...), on the nodes or the launcher, is refused rather than dropped', () => {
    expect(make({ topology: kai })).toThrow(`test/rt: topology is "${kai._describe()}"; ${KAI}`);
    expect(make({ launcher: { topology: kai } })).toThrow(`test/rt: launcher.topology is "${kai._describe()}"; ${KAI}`);
  });

  test('a Kueue topology stays: Kueue reads it from the pod templates the runtime writes', () => {
    const [rt] = synth(chart => new ClusterTrainingRuntime(chart, 'rt', {
      metadata: { name: 'mpi' }, mlPolicy: MlPolicy.torch(), image: IMAGE, topology: Topology.required('cloud.provider.com/rack'),
    }));
    expect(rt.spec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations)
      .toEqual({ 'kueue.x-k8s.io/podset-required-topology': 'cloud.provider.com/rack', 'sidecar.istio.io/inject': 'false' });
  });
});
