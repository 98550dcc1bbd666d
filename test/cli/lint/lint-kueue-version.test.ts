/**
 * kueue/api-version-served: `lint` reports every kueue.x-k8s.io/v1beta1 object, of any kind, with
 * the Kueue version that stops serving it and its v1beta2 form in short; v1beta2 input has no such finding.
 */
import * as fs from 'fs';
import * as path from 'path';
import { EXIT } from '../../../src/cli/main';
import { runCli } from '../run-cli';

const FILE = path.join(path.dirname(__dirname), 'fixtures', 'kueue-v1beta1', 'cohort.yaml');

test('kueue/api-version-served: one finding per v1beta1 object, with its v1beta2 changes', () => {
  const result = runCli(['lint', FILE]);
  expect(result.status).toBe(EXIT.FINDINGS);
  const served = result.stdout.split('\n').filter(l => l.includes('[kueue/api-version-served]'));
  expect(served.map(l => l.slice(l.indexOf(': ') + 2))).toEqual([
    'Cohort research: apiVersion is "kueue.x-k8s.io/v1beta1"; expected kueue.x-k8s.io/v1beta2: Kueue v0.20 and later do not serve v1beta1 (its v1beta2 form changes only the apiVersion) [kueue/api-version-served]',
    'ResourceFlavor a100: apiVersion is "kueue.x-k8s.io/v1beta1"; expected kueue.x-k8s.io/v1beta2: Kueue v0.20 and later do not serve v1beta1 (its v1beta2 form changes only the apiVersion) [kueue/api-version-served]',
    'ClusterQueue vision: apiVersion is "kueue.x-k8s.io/v1beta1"; expected kueue.x-k8s.io/v1beta2: Kueue v0.20 and later do not serve v1beta1 (its v1beta2 form: '
      + 'spec.cohort -> spec.cohortName; spec.admissionChecks -> spec.admissionChecksStrategy.admissionChecks[].name; spec.flavorFungibility.whenCanBorrow: Borrow -> MayStopSearch) [kueue/api-version-served]',
    'LocalQueue vision/vision: apiVersion is "kueue.x-k8s.io/v1beta1"; expected kueue.x-k8s.io/v1beta2: Kueue v0.20 and later do not serve v1beta1 (its v1beta2 form changes only the apiVersion) [kueue/api-version-served]',
    'WorkloadPriorityClass high: apiVersion is "kueue.x-k8s.io/v1beta1"; expected kueue.x-k8s.io/v1beta2: Kueue v0.20 and later do not serve v1beta1 (its v1beta2 form changes only the apiVersion) [kueue/api-version-served]',
  ]);
  // Each finding at its document's apiVersion line.
  expect(served.map(l => l.slice(0, l.indexOf(': ')))).toEqual([2, 9, 17, 38, 46].map(line => `${FILE}:${line}:1`));
});

test('kueue/api-version-served: no finding on the same objects in v1beta2', () => {
  const text = fs.readFileSync(FILE, 'utf8').replace(/v1beta1/g, 'v1beta2').replace('cohort: research', 'cohortName: research')
    .replace('admissionChecks: [provisioning]', 'admissionChecksStrategy: {admissionChecks: [{name: provisioning}]}').replace('whenCanBorrow: Borrow', 'whenCanBorrow: MayStopSearch');
  expect(runCli(['lint', '-'], text).stdout).not.toContain('kueue/api-version-served');
});
