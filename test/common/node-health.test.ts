import { k8s } from 'cdk8s-plus-28';
import { NodeHealth, PlatformDefaults } from '../../src';
import { freshChart as fresh, pytorchJob as pytorch, synthPyTorchJob as synthJob, thrown } from '../harness/job-fixtures';
import { LABEL_VALUE } from '../harness/messages';

const AUTOPILOT = { key: 'autopilot.ibm.com/gpuhealth', operator: 'NotIn', values: ['ERR', 'TESTING', 'EVICT'] };

const affinityOf = (job: any, role: string) => job.spec.pytorchReplicaSpecs[role].template.spec.affinity;

describe('node health', () => {
  test('a platform default with no affinity of the job\'s own becomes the one required term', () => {
    const job = synthJob({}, chart => PlatformDefaults.set(chart, { nodeHealth: [NodeHealth.AUTOPILOT] }));
    for (const role of ['Master', 'Worker']) {
      expect(affinityOf(job, role)).toEqual({
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [AUTOPILOT] }] } },
      });
    }
  });

  test('merged into every term of the job\'s own affinity (terms are ORed), keeping everything else', () => {
    const affinity: k8s.Affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'nvidia.com/gpu.product', operator: 'In', values: ['H100-SXM'] }] },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-7'] }] },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } }],
      },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'x' } } }] },
    };
    const bad = NodeHealth.avoidHosts(['gpu-3']);
    const job = synthJob({ affinity, nodeHealth: [bad] }, chart => PlatformDefaults.set(chart, { nodeHealth: [NodeHealth.AUTOPILOT] }));
    const hosts = { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['gpu-3'] };
    expect(affinityOf(job, 'Worker')).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'nvidia.com/gpu.product', operator: 'In', values: ['H100-SXM'] }, AUTOPILOT, hosts] },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-7'] }], matchExpressions: [AUTOPILOT, hosts] },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } }],
      },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'x' } } }] },
    });
    // The user's object is not changed.
    expect(affinity.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0].matchExpressions).toHaveLength(1);
  });

  test('a role adds to the job\'s; a requirement already there is not repeated', () => {
    const job = synthJob({
      nodeHealth: [NodeHealth.labelNotIn('health.example.com/verdict', ['bad'])],
      worker: { nodeHealth: [NodeHealth.AUTOPILOT, NodeHealth.labelNotIn('health.example.com/verdict', ['bad'])] },
    });
    const verdict = { key: 'health.example.com/verdict', operator: 'NotIn', values: ['bad'] };
    expect(affinityOf(job, 'Master').nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{ matchExpressions: [verdict] }]);
    expect(affinityOf(job, 'Worker').nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms)
      .toEqual([{ matchExpressions: [verdict, AUTOPILOT] }]);
  });

  test('no health settings leave the affinity as the user wrote it', () => {
    expect(affinityOf(synthJob(), 'Worker')).toBeUndefined();
  });

  test('label keys and values are checked where they are given', () => {
    expect(thrown(() => pytorch(fresh(), { nodeHealth: [NodeHealth.labelNotIn('bad key', ['x'])] })))
      .toBe('test/job: nodeHealth[0].labelKey is "bad key"; expected a node label key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit');
    expect(thrown(() => pytorch(fresh(), { worker: { nodeHealth: [NodeHealth.avoidHosts([])] } })))
      .toBe('test/job/Worker: nodeHealth[0].values (worker.nodeHealth[0].values) is []; expected at least one label value; a NotIn requirement without values is refused by the API server');
    expect(thrown(() => PlatformDefaults.set(fresh(), { nodeHealth: [NodeHealth.labelNotIn('health', ['not ok'])] })))
      .toBe(`test/KubeflowPlatformDefaults: nodeHealth[0].values is "not ok"; ${LABEL_VALUE}`);
  });
});
