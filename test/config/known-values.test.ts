/**
 * Values outside the pinned operator's set: the v1 fields the CRDs declare as plain strings are
 * refused by the kubeflow/* known-value rules at synth (whether the value came from `X.of(value)`
 * or an escape hatch) and in `lint`, naming the values the operator knows; the cdk8s context key
 * cdk8s-kubeflow/accept-unknown-values accepts a newer operator's values.
 */
import { Chart, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { CleanPodPolicy, DistributedPyTorch, ParameterServerTF, RestartPolicy } from '../../src';
import { documentFindings } from '../../src/rules/rule-sets';
import { runCli } from '../cli/run-cli';
import { REPORT, expectValidManifests, synthErrors, synthManifests } from '../harness';

const OPT_IN = '; for a newer operator\'s value, list it in the cdk8s context key "cdk8s-kubeflow/accept-unknown-values"';
const RESTART = 'expected "Always", "OnFailure", "Never" or "ExitCode", the values training-operator v1.9.4 knows (the operator copies the value onto the pods, which the API server refuses)';
const CLEAN = 'expected "None", "Running" or "All", the values training-operator v1.9.4 knows (the operator deletes every pod on any other value)';

describe('at synth', () => {
  test('RestartPolicy.of and CleanPodPolicy.of with a value the pinned operator does not know are refused, naming the prop, the values known and the opt-in', () => {
    const errors = synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      image: 'train:1', workers: 1, restartPolicy: RestartPolicy.of('Sometimes'), runPolicy: { cleanPodPolicy: CleanPodPolicy.of('Finished') },
    }));
    expect(errors).toBe(`${REPORT}`
      + `  [test/job] spec.runPolicy.cleanPodPolicy (runPolicy.cleanPodPolicy) is "Finished"; ${CLEAN}${OPT_IN}\n`
      + `  [test/job] spec.pytorchReplicaSpecs.Master.restartPolicy (restartPolicy) is "Sometimes"; ${RESTART}${OPT_IN}\n`
      + `  [test/job] spec.pytorchReplicaSpecs.Worker.restartPolicy (restartPolicy) is "Sometimes"; ${RESTART}${OPT_IN}`);
  });

  test('a role\'s own restart policy is named by the role\'s prop', () => {
    const errors = synthErrors(chart => new DistributedPyTorch(chart, 'job', { image: 'train:1', workers: 1, worker: { restartPolicy: RestartPolicy.of('OnFailur') } }));
    expect(errors).toBe(`${REPORT}  [test/job] spec.pytorchReplicaSpecs.Worker.restartPolicy (worker.restartPolicy) is "OnFailur"; ${RESTART}${OPT_IN}`);
  });

  test('the context key accepts the values it lists, and only those', () => {
    const build = (chart: Chart) => new DistributedPyTorch(chart, 'job', {
      image: 'train:1', workers: 1, restartPolicy: RestartPolicy.of('Sometimes'), runPolicy: { cleanPodPolicy: CleanPodPolicy.of('Finished') },
    });
    const docs = synthManifests(app => {
      app.node.setContext('cdk8s-kubeflow/accept-unknown-values', ['Sometimes', 'Finished']);
      build(new Chart(app, 'test'));
    });
    expect(docs[0].spec.runPolicy.cleanPodPolicy).toBe('Finished');
    expect(docs[0].spec.pytorchReplicaSpecs.Worker.restartPolicy).toBe('Sometimes');
    expectValidManifests(docs); // the CRD declares both as plain strings

    const app = Testing.app();
    app.node.setContext('cdk8s-kubeflow/accept-unknown-values', ['Sometimes']);
    build(new Chart(app, 'test'));
    expect(() => app.synth()).toThrow(`${REPORT}  [test/job] spec.runPolicy.cleanPodPolicy (runPolicy.cleanPodPolicy) is "Finished"; ${CLEAN}${OPT_IN}`);
  });

  test('a malformed context key is an error, not ignored', () => {
    const app = Testing.app();
    app.node.setContext('cdk8s-kubeflow/accept-unknown-values', 'Sometimes');
    new DistributedPyTorch(new Chart(app, 'test'), 'job', { image: 'train:1', workers: 1 });
    expect(() => app.synth()).toThrow('context cdk8s-kubeflow/accept-unknown-values is "Sometimes"; expected a list of the raw values to accept, such as ["Sometimes"]');
  });

  test('the constants synthesize without a finding', () => {
    for (const policy of [RestartPolicy.ALWAYS, RestartPolicy.ON_FAILURE, RestartPolicy.NEVER, RestartPolicy.EXIT_CODE]) {
      for (const clean of [CleanPodPolicy.NONE, CleanPodPolicy.RUNNING, CleanPodPolicy.ALL]) {
        expect(synthErrors(chart => new ParameterServerTF(chart, 'job', { image: 'tf:1', workers: 1, restartPolicy: policy, runPolicy: { cleanPodPolicy: clean } }))).toBeUndefined();
      }
    }
  });
});

/** A v1 job document with the fields under test. */
function job(kind: string, spec: any): any {
  return { apiVersion: 'kubeflow.org/v1', kind, metadata: { name: 'train', namespace: 'ml' }, spec };
}
const pod = (name: string) => ({ spec: { containers: [{ name, image: 'x:1' }] } });

describe('over documents (the rules lint and the engine share)', () => {
  test.each([
    ['training-operator/clean-pod-policy', job('PyTorchJob', { runPolicy: { cleanPodPolicy: 'Always' }, pytorchReplicaSpecs: { Worker: { replicas: 1, template: pod('pytorch') } } }),
      'spec.runPolicy.cleanPodPolicy', 'Always'],
    ['training-operator/clean-pod-policy', job('MPIJob', { cleanPodPolicy: 'all', mpiReplicaSpecs: { Launcher: { replicas: 1, template: pod('mpi') }, Worker: { replicas: 1, template: pod('mpi') } } }),
      'spec.cleanPodPolicy', 'all'],
    ['training-operator/replica-restart-policy', job('XGBoostJob', { xgbReplicaSpecs: { Master: { replicas: 1, restartPolicy: 'onFailure', template: pod('xgboost') } } }),
      'spec.xgbReplicaSpecs.Master.restartPolicy', 'onFailure'],
    ['training-operator/managed-by', job('JAXJob', { runPolicy: { managedBy: 'kueue.x-k8s.io/multi-kueue' }, jaxReplicaSpecs: { Worker: { replicas: 1, template: pod('jax') } } }),
      'spec.runPolicy.managedBy', 'kueue.x-k8s.io/multi-kueue'],
    ['training-operator/rdzv-backend', job('PyTorchJob', { elasticPolicy: { rdzvBackend: 'static' }, pytorchReplicaSpecs: { Worker: { replicas: 1, template: pod('pytorch') } } }),
      'spec.elasticPolicy.rdzvBackend', 'static'],
    ['training-operator/tf-success-policy', job('TFJob', { successPolicy: 'AllWorker', tfReplicaSpecs: { Worker: { replicas: 1, template: pod('tensorflow') } } }),
      'spec.successPolicy', 'AllWorker'],
  ])('%s, case %#', (rule, doc, field, value) => {
    const found = documentFindings(doc).filter(f => f.rule === rule);
    expect(found.map(f => [f.field, f.value])).toEqual([[field, value]]);
    expect(found[0].allowed).toMatch(/^expected .*, the values training-operator v1\.9\.4 knows \(|^expected .*, the values training-operator v1\.9\.4 knows$/);
  });

  test('an empty replica restart policy is the unset one, which the controller defaults', () => {
    const doc = job('PyTorchJob', { pytorchReplicaSpecs: { Master: { replicas: 1, restartPolicy: '', template: pod('pytorch') } } });
    expect(documentFindings(doc).filter(f => f.rule === 'training-operator/replica-restart-policy')).toEqual([]);
  });

  test('lint reports the finding with the rule id and the values known', () => {
    const doc = job('TFJob', { runPolicy: { cleanPodPolicy: 'Always' }, tfReplicaSpecs: { Worker: { replicas: 1, restartPolicy: 'OnFailure', template: pod('tensorflow') } } });
    const result = runCli(['lint', '-'], yaml.dump(doc));
    expect(result.stdout.split('\n').filter(l => l)).toEqual([
      `<stdin>:8:5: TFJob ml/train: spec.runPolicy.cleanPodPolicy is "Always"; ${CLEAN} [training-operator/clean-pod-policy]`,
      '1 document checked; 1 finding',
    ]);
  });
});
