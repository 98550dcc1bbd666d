import { kubernetesFindings } from '../../../src/rules/kubernetes';
import { appFindings } from '../../../src/rules/rule-sets';
import { WHOLE_NUMBER_1_OR_MORE } from '../../harness/messages';

/**
 * What Trainer v2.3.0's torch and flux plugins refuse in a runtime (trainer/runtime-policy) and in a
 * TrainJob against its Flux runtime (trainer/trainjob-runtime); found missing by the rules inventory.
 */
describe('kubeflow/trainer v2.3.0 plugins torch and flux Validate', () => {
  const node = (extra: Record<string, unknown> = {}) => ({
    name: 'node', template: { metadata: { labels: { 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' } }, spec: { template: { spec: { containers: [{ name: 'node', image: 'img' }], ...extra } } } },
  });
  const runtime = (mlPolicy: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'trainer.kubeflow.org/v1alpha1',
    kind: 'ClusterTrainingRuntime',
    metadata: { name: 'rt' },
    spec: { mlPolicy: { numNodes: 1, ...mlPolicy }, template: { spec: { replicatedJobs: [node(extra)] } } },
  });
  const refused = 'the Trainer webhook refuses every TrainJob of this runtime';
  const policyFindings = (doc: unknown) => kubernetesFindings(doc).filter(f => f.rule === 'trainer/runtime-policy');

  test('trainer/runtime-policy: a torch envInjection target is a container (or init container) of the named job', () => {
    const torch = (jobName: string, containerNames: string[]) => runtime({ torch: { envInjection: { targets: [{ jobName, containerNames }] } } },
      { initContainers: [{ name: 'warmup', image: 'img' }] });
    expect(policyFindings(torch('node', ['warmup']))).toEqual([]);
    expect(policyFindings(torch('node', ['sidecar']))).toEqual([{
      field: 'spec.mlPolicy.torch.envInjection.targets[0].containerNames[0]',
      value: 'sidecar',
      allowed: `expected a container of the "node" job ("warmup", "node"); ${refused}`,
      rule: 'trainer/runtime-policy',
    }]);
    expect(policyFindings(torch('trainer', ['warmup']))).toEqual([{
      field: 'spec.mlPolicy.torch.envInjection.targets[0].containerNames[0]',
      value: 'warmup',
      allowed: `expected a container of a replicated job of this runtime, and "trainer" is none ("node"); ${refused}`,
      rule: 'trainer/runtime-policy',
    }]);
  });

  test('trainer/runtime-policy: a flux runtime\'s node has no init container named flux-installer', () => {
    expect(policyFindings(runtime({ flux: {} }, { initContainers: [{ name: 'flux-installer', image: 'img' }] }))).toEqual([{
      field: 'spec.template.spec.replicatedJobs[node].template.spec.template.spec.initContainers[0].name',
      value: 'flux-installer',
      allowed: `expected another name: the flux plugin adds its own "flux-installer" init container; ${refused}`,
      rule: 'trainer/runtime-policy',
    }]);
    expect(policyFindings(runtime({ torch: {} }, { initContainers: [{ name: 'flux-installer', image: 'img' }] }))).toEqual([]);
  });

  test('trainer/counts: a TrainJob on a flux runtime asks for at least 1 process per node, found once, whatever the runtime', () => {
    const job = (numProcPerNode: number) => ({
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'j', namespace: 'ml' },
      spec: { runtimeRef: { name: 'rt', kind: 'ClusterTrainingRuntime', apiGroup: 'trainer.kubeflow.org' }, trainer: { numProcPerNode } },
    });
    const counts = (doc: unknown) => kubernetesFindings(doc).filter(f => f.rule === 'trainer/counts');
    expect(counts(job(0))).toEqual([{
      field: 'spec.trainer.numProcPerNode',
      value: 0,
      allowed: WHOLE_NUMBER_1_OR_MORE,
      rule: 'trainer/counts',
    }]);
    expect(counts(job(1))).toEqual([]);
    // The flux plugin's own refusal is not reported a second time against the runtime.
    const againstRuntime = appFindings([{ path: 'a', doc: runtime({ flux: {} }) }, { path: 'b', doc: job(0) }]).filter(f => f.finding.rule === 'trainer/trainjob-runtime');
    expect(againstRuntime).toEqual([]);
  });

  test('trainer/counts and trainer/ssh-auth-mount-path: a runtime\'s node count, MPI slots and SSH key path', () => {
    const found = (doc: unknown) => kubernetesFindings(doc).filter(f => f.rule === 'trainer/counts' || f.rule === 'trainer/ssh-auth-mount-path');
    expect(found(runtime({ numNodes: 2, mpi: { numProcPerNode: 4, sshAuthMountPath: '/home/mpiuser/.ssh' } }))).toEqual([]);
    expect(found(runtime({ numNodes: 2, mpi: { numProcPerNode: 4, sshAuthMountPath: 'root/.ssh' } }))).toEqual([]);
    expect(found(runtime({ numNodes: 0, mpi: { numProcPerNode: -1, sshAuthMountPath: '' } }))).toEqual([
      { field: 'spec.mlPolicy.numNodes', value: 0, allowed: WHOLE_NUMBER_1_OR_MORE, rule: 'trainer/counts' },
      { field: 'spec.mlPolicy.mpi.numProcPerNode', value: -1, allowed: WHOLE_NUMBER_1_OR_MORE, rule: 'trainer/counts' },
      { field: 'spec.mlPolicy.mpi.sshAuthMountPath', value: '', allowed: 'expected a directory for the SSH keys such as /home/mpiuser/.ssh (the Trainer mounts them there, and Kubernetes refuses an empty mount path)', rule: 'trainer/ssh-auth-mount-path' },
    ]);
    // A value that is no whole number is the CRD schema's, not a count finding.
    expect(found(runtime({ numNodes: '2' }))).toEqual([]);
  });
});
