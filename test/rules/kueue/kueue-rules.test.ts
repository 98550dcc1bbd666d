import { Finding } from '../../../src/rules/finding';
import { checkClusterQueue } from '../../../src/rules/kueue/cluster-queue';
import { checkResourceFlavor } from '../../../src/rules/kueue/resource-flavor';
import { runCli } from '../../cli/run-cli';
import { withNamedFlavors } from '../../harness/kueue-objects';
import { LABEL_KEY, LABEL_VALUE } from '../../harness/messages';

/**
 * Kueue v0.15.2's ClusterQueue and ResourceFlavor webhook checks on documents (what `lint` reads):
 * the limits that need many entries, and the Kubernetes checks Kueue's webhooks call.
 */

const clusterQueue = (spec: object) => ({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ClusterQueue', metadata: { name: 'vision' }, spec });
const flavor = (spec: object) => ({ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ResourceFlavor', metadata: { name: 'a100' }, spec });

function findings(check: (doc: any, out: Finding[]) => void, doc: object): string[] {
  const out: Finding[] = [];
  check(doc, out);
  return out.map(f => `${f.field} is ${JSON.stringify(f.value)}; ${f.allowed} [${f.rule}]`);
}

/** `lint`'s findings for one document (with the flavors a ClusterQueue names), without positions and the summary line. */
function lint(doc: object): string[] {
  const result = runCli(['lint', '-'], withNamedFlavors([doc]).map(x => JSON.stringify(x)).join('\n---\n'));
  return result.stdout.trim().split('\n').slice(0, -1).map(l => l.replace(/^<stdin>:\d+:\d+: /, ''));
}

describe('ClusterQueue', () => {
  test('more than 256 flavors over all groups, and more than 512 flavor-resource pairs in one group', () => {
    // 17 groups of 16 flavors (the CRD allows 16 per group) with 2 resources each: 272 flavors, 32 pairs a group.
    const groups = Array.from({ length: 17 }, (_, g) => ({
      coveredResources: [`example.com/r${g}a`, `example.com/r${g}b`],
      flavors: Array.from({ length: 16 }, (__, f) => ({ name: `f${g}-${f}`, resources: [{ name: `example.com/r${g}a`, nominalQuota: 1 }, { name: `example.com/r${g}b`, nominalQuota: 1 }] })),
    }));
    expect(findings(checkClusterQueue, clusterQueue({ resourceGroups: groups }))).toEqual([
      'spec.resourceGroups is 272; expected at most 256 flavors across all resource groups [kueue/cluster-queue-resources]',
    ]);
    // One group whose 16 flavors cover 33 resources (over the CRD's 16, which the schema reports too): 528 pairs.
    const names = Array.from({ length: 33 }, (_, i) => `example.com/r${i}`);
    const wide = { coveredResources: names, flavors: Array.from({ length: 16 }, (_, f) => ({ name: `f${f}`, resources: names.map(name => ({ name, nominalQuota: 1 })) })) };
    expect(findings(checkClusterQueue, clusterQueue({ resourceGroups: [wide] }))).toEqual([
      'spec.resourceGroups[0] is 528; expected at most 512 flavor-resource pairs in a resource group (flavors × resources) [kueue/cluster-queue-resources]',
    ]);
  });

  test('more than 256 covered resources over all groups', () => {
    const groups = Array.from({ length: 17 }, (_, g) => ({
      coveredResources: Array.from({ length: 16 }, (__, r) => `example.com/g${g}r${r}`),
      flavors: [{ name: `f${g}`, resources: Array.from({ length: 16 }, (__, r) => ({ name: `example.com/g${g}r${r}`, nominalQuota: 1 })) }],
    }));
    expect(findings(checkClusterQueue, clusterQueue({ resourceGroups: groups }))).toEqual([
      'spec.resourceGroups is 272; expected at most 256 covered resources across all resource groups [kueue/cluster-queue-resources]',
    ]);
  });

  test('a negative quota, and a covered resource that is not a resource name', () => {
    expect(lint(clusterQueue({
      cohortName: 'gpus',
      resourceGroups: [{
        coveredResources: ['cpu', 'bad name'],
        flavors: [{ name: 'a100', resources: [{ name: 'cpu', nominalQuota: '-1', borrowingLimit: '-2' }, { name: 'bad name', nominalQuota: 1 }] }],
      }],
    }))).toEqual([
      'ClusterQueue vision: spec.resourceGroups[0].coveredResources[1] is "bad name"; expected a resource name: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit [kueue/cluster-queue-resources]',
      'ClusterQueue vision: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota is "-1"; expected a quantity of 0 or more [kueue/cluster-queue-quotas]',
      'ClusterQueue vision: spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit is "-2"; expected a quantity of 0 or more [kueue/cluster-queue-quotas]',
    ]);
  });

  test('the namespace selector is a Kubernetes label selector', () => {
    expect(lint(clusterQueue({ namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In' }] }, resourceGroups: [] }))).toEqual([
      'ClusterQueue vision: spec.namespaceSelector.matchExpressions[0].values is not set; expected at least one value when operator is "In" [kubernetes/label-selector]',
    ]);
  });

  test('a valid queue has no findings', () => {
    expect(findings(checkClusterQueue, clusterQueue({
      cohortName: 'gpus',
      fairSharing: { weight: 0 },
      namespaceSelector: {},
      resourceGroups: [{
        coveredResources: ['cpu', 'nvidia.com/gpu'],
        flavors: [{ name: 'a100', resources: [{ name: 'cpu', nominalQuota: '64' }, { name: 'nvidia.com/gpu', nominalQuota: 8, borrowingLimit: 0, lendingLimit: 8 }] }],
      }],
    }))).toEqual([]);
  });
});

describe('ResourceFlavor', () => {
  test('node labels are labels, tolerations are pod tolerations', () => {
    expect(lint(flavor({ nodeLabels: { 'example.com/gpu': 'a 100' }, tolerations: [{ key: 'example.com/gpu', operator: 'Exists', value: 'a100' }] }))).toEqual([
      'ResourceFlavor a100: spec.tolerations is [{"key":"example.com/gpu","operator":"Exists","value":"a100"}]; expected a value the CRD\'s validation rule accepts: a value must be empty when \'operator\' is \'Exists\' (x-kubernetes-validations: self.all(x, has(x.operator) && x.operator == \'Exists\' ? !has(x.value) : true)) [library/schema]',
      `ResourceFlavor a100: spec.nodeLabels["example.com/gpu"] is "a 100"; ${LABEL_VALUE} [kubernetes/label-value]`,
      'ResourceFlavor a100: spec.tolerations[0].value is "a100"; expected no value when operator is "Exists" (it matches any value) [kubernetes/toleration-value]',
    ]);
  });

  test('every toleration mistake and a node label key, as Kubernetes judges them (kubernetes/label-key, k8s/toleration-*)', () => {
    expect(findings(checkResourceFlavor, flavor({
      nodeLabels: { 'bad key': 'a100' },
      tolerations: [
        { key: 'bad key', operator: 'Equal', value: 'x' },
        { key: 'gpu', operator: 'Matches' },
        { key: 'gpu', operator: 'Exists', effect: 'Sometimes' },
        { key: 'gpu', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 60 },
      ],
    }))).toEqual([
      `spec.nodeLabels["bad key"] is "bad key"; ${LABEL_KEY} [kubernetes/label-key]`,
      'spec.tolerations[0].key is "bad key"; expected a taint key: an optional DNS subdomain prefix and "/", then at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit [kubernetes/toleration-key]',
      'spec.tolerations[1].operator is "Matches"; expected "Equal" or "Exists" [kubernetes/toleration-operator]',
      'spec.tolerations[2].effect is "Sometimes"; expected "NoSchedule", "PreferNoSchedule", "NoExecute", or empty for all effects [kubernetes/toleration-effect]',
      'spec.tolerations[3].tolerationSeconds is 60; expected not set unless effect is "NoExecute" [kubernetes/toleration-seconds]',
    ]);
  });

  test('a taint value that is not a label value', () => {
    expect(findings(checkResourceFlavor, flavor({ nodeTaints: [{ key: 'example.com/gpu', value: '-a100', effect: 'NoSchedule' }] }))).toEqual([
      `spec.nodeTaints[0].value is "-a100"; ${LABEL_VALUE} [kueue/resource-flavor-taints]`,
    ]);
  });
});
