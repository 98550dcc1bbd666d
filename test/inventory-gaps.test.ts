import { kubeflowFindings } from '../src/rules/operators';

/**
 * Checks the rules inventory found upstream making and no library rule covering, now covered:
 * each with the exact finding, and the nearest valid input without one.
 */

const container = { name: 'pytorch', image: 'pytorch/pytorch:2.4.0' };
const replica = (replicas?: number) => ({ ...(replicas === undefined ? {} : { replicas }), template: { spec: { containers: [container] } } });
const pytorch = (specs: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', metadata: { name: 'train', namespace: 'ml' },
  spec: { pytorchReplicaSpecs: specs, ...extra },
});

describe('training-operator pkg/webhooks/pytorch validatePyTorchReplicaSpecs and validateSpec', () => {
  test('a Worker with replicas 0 is refused (kubeflow/replica-count)', () => {
    expect(kubeflowFindings(pytorch({ Master: replica(1), Worker: replica(0) }))).toEqual([{
      field: 'spec.pytorchReplicaSpecs.Worker.replicas', value: 0,
      allowed: 'expected at least 1: the operator\'s webhook refuses a PyTorchJob Worker with fewer replicas', rule: 'kubeflow/replica-count',
    }]);
    expect(kubeflowFindings(pytorch({ Master: replica(1), Worker: replica(1) }))).toEqual([]);
    expect(kubeflowFindings(pytorch({ Master: replica(1), Worker: replica() }))).toEqual([]);
  });

  test('an elastic job without a Worker is refused (kubeflow/replica-count)', () => {
    const elastic = { elasticPolicy: { minReplicas: 1, maxReplicas: 2, rdzvBackend: 'c10d' } };
    expect(kubeflowFindings(pytorch({}, elastic))).toEqual([{
      field: 'spec.pytorchReplicaSpecs.Worker', value: undefined,
      allowed: 'expected a Worker: the operator\'s webhook refuses an elastic PyTorchJob (elasticPolicy) without one', rule: 'kubeflow/replica-count',
    }]);
    expect(kubeflowFindings(pytorch({ Worker: replica(2) }, elastic))).toEqual([]);
  });
});
