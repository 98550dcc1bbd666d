import { CleanPodPolicy, ManagedBy, RestartPolicy } from '../../src';

test('enum-like values carry the operator spelling', () => {
  expect([CleanPodPolicy.NONE, CleanPodPolicy.RUNNING, CleanPodPolicy.ALL, CleanPodPolicy.of('Future')].map(p => p.value))
    .toEqual(['None', 'Running', 'All', 'Future']);
  expect([RestartPolicy.ALWAYS, RestartPolicy.ON_FAILURE, RestartPolicy.NEVER, RestartPolicy.EXIT_CODE].map(p => p.value))
    .toEqual(['Always', 'OnFailure', 'Never', 'ExitCode']);
  expect([ManagedBy.TRAINING_OPERATOR, ManagedBy.MULTI_KUEUE].map(p => p.value))
    .toEqual(['kubeflow.org/training-operator', 'kueue.x-k8s.io/multikueue']);
});
