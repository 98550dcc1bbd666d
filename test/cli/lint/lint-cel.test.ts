import { runCli } from '../run-cli';

/** `lint` applies the CRDs' CEL rules (x-kubernetes-validations) as it applies their schemas. */
test('lint reports a runtime with two ML policies and a TrainJob name the CRD refuses, with the rule', () => {
  const input = [
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    'kind: ClusterTrainingRuntime',
    'metadata:',
    '  name: torch-and-mpi',
    'spec:',
    '  mlPolicy:',
    '    numNodes: 1',
    '    torch: {}',
    '    mpi: {}',
    '  template:',
    '    spec:',
    '      replicatedJobs: []',
    '---',
    'apiVersion: trainer.kubeflow.org/v1alpha1',
    'kind: TrainJob',
    'metadata:',
    '  name: fine-tune-',
    '  namespace: team-a',
    'spec:',
    '  runtimeRef:',
    '    name: torch-and-mpi',
    '',
  ].join('\n');
  const result = runCli(['lint', '--format', 'json', '-'], input);
  const findings = (JSON.parse(result.stdout).findings as Array<{ rule: string; field: string; message?: string }>)
    .filter(f => f.rule === 'library/schema');
  expect(findings.map(f => f.field)).toEqual(['spec.mlPolicy', 'metadata.name']);
  expect(result.stdout).toContain('Only one of the policy can be configured (x-kubernetes-validations: [has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1)');
  expect(result.stdout).toContain("metadata.name must match RFC 1035 DNS label format (x-kubernetes-validations: self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$'))");
  expect(result.status).toBe(1);
});
