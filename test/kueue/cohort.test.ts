import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { Accelerator, ClusterQueue, Cohort, ResourceFlavor, ResourceQuota } from '../../src';
import { runCli } from '../cli/run-cli';
import { REPORT, expectValidManifests, synthErrors } from '../harness';

/** The Cohort construct, ClusterQueues in a tree of cohorts, Kueue's Cohort checks, and v1beta1 input judged as v1beta2 is. */

const report = (...lines: string[]) => REPORT + lines.map(l => `  ${l}`).join('\n');

/** The findings `lint` prints for documents, without the position prefix and the summary. */
function lint(...docs: object[]): string[] {
  const result = runCli(['lint', '-'], docs.map(d => JSON.stringify(d)).join('\n---\n'));
  return result.stdout.trim().split('\n').slice(0, -1).map(l => l.replace(/^<stdin>:\d+:\d+: /, ''));
}

const gpus = (count: number, borrow?: number, lend?: number) => ResourceQuota.accelerator(Accelerator.nvidia(count), borrow, lend);

const CYCLE = 'Kueue accepts it and admits nothing through the ClusterQueues below (cohort has a cycle)';

describe('the Cohort construct', () => {
  test('a tree of cohorts renders kueue.x-k8s.io/v1beta2, each object after what it names', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test');
    const a100 = new ResourceFlavor(c, 'A100', { metadata: { name: 'a100' } });
    // The queue in a chart of its own: its dependency on the cohort orders the documents across charts.
    const late = new Chart(app, 'queues');
    const org = new Cohort(c, 'Org', {
      metadata: { name: 'org' },
      fairSharingWeight: '2',
      resourceGroups: [{
        flavors: [{ flavor: a100, quotas: [ResourceQuota.cpu(kplus.Cpu.units(16)), ResourceQuota.memory(Size.gibibytes(64)), gpus(8)] }],
      }],
    });
    const team = new Cohort(c, 'Team', { metadata: { name: 'team' }, parent: org, resourceGroups: [{ flavors: [{ flavor: a100, quotas: [gpus(4, 2, 1)] }] }] });
    const queue = new ClusterQueue(late, 'Q', {
      metadata: { name: 'q' }, cohort: team, admissionChecks: ['multikueue'], resourceGroups: [{ flavors: [{ flavor: a100, quotas: [gpus(8, 4, 2)] }] }],
    });
    expect(team.parent).toBe(org);
    expect(queue.cohort).toBe(team);
    const docs = yaml.loadAll(app.synthYaml()) as any[];
    expectValidManifests(docs);
    expect(docs).toEqual([
      { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ResourceFlavor', metadata: { name: 'a100' }, spec: {} },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'Cohort',
        metadata: { name: 'org' },
        spec: {
          fairSharing: { weight: '2' },
          resourceGroups: [{
            coveredResources: ['cpu', 'memory', 'nvidia.com/gpu'],
            flavors: [{ name: 'a100', resources: [{ name: 'cpu', nominalQuota: '16' }, { name: 'memory', nominalQuota: '64Gi' }, { name: 'nvidia.com/gpu', nominalQuota: 8 }] }],
          }],
        },
      },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'Cohort',
        metadata: { name: 'team' },
        spec: {
          parentName: 'org',
          resourceGroups: [{ coveredResources: ['nvidia.com/gpu'], flavors: [{ name: 'a100', resources: [{ borrowingLimit: 2, lendingLimit: 1, name: 'nvidia.com/gpu', nominalQuota: 4 }] }] }],
        },
      },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'ClusterQueue',
        metadata: { name: 'q' },
        spec: {
          // v1beta2 names the cohort cohortName and lists admission checks under admissionChecksStrategy.
          admissionChecksStrategy: { admissionChecks: [{ name: 'multikueue' }] },
          cohortName: 'team',
          namespaceSelector: {},
          resourceGroups: [{ coveredResources: ['nvidia.com/gpu'], flavors: [{ name: 'a100', resources: [{ borrowingLimit: 4, lendingLimit: 2, name: 'nvidia.com/gpu', nominalQuota: 8 }] }] }],
        },
      },
    ]);
  });

  test('a cohort known by name: no object, no dependency, its name written', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test');
    new Cohort(c, 'Team', { metadata: { name: 'team' }, parent: Cohort.fromName('org') });
    new ClusterQueue(c, 'Q', { metadata: { name: 'q' }, cohort: Cohort.fromName('team'), resourceGroups: [] });
    const docs = c.toJson();
    expectValidManifests(docs);
    expect(docs.map((d: any) => [d.kind, d.spec])).toEqual([
      ['Cohort', { parentName: 'org' }],
      ['ClusterQueue', { cohortName: 'team', namespaceSelector: {}, resourceGroups: [] }],
    ]);
  });

  test('a Cohort without props is a root with nothing of its own', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test');
    new Cohort(c, 'Org', { metadata: { name: 'org' } });
    expect(c.toJson()).toEqual([{ apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'Cohort', metadata: { name: 'org' }, spec: {} }]);
  });

  test('a cohort given as a plain name (the v1beta1-era prop, from JavaScript) is refused, naming the two ways', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(() => new ClusterQueue(chart, 'Q', { cohort: 'gpus' as any, resourceGroups: [] }))
      .toThrow('test/Q: cohort is "gpus"; expected an ICohort: a Cohort or Cohort.fromName(name)');
    expect(() => new Cohort(chart, 'C', { parent: 'org' as any }))
      .toThrow('test/C: parent is "org"; expected an ICohort: a Cohort or Cohort.fromName(name)');
  });

  test('a Cohort describes no pods', () => {
    const app = Testing.app();
    const cohort = new Cohort(new Chart(app, 'test'), 'Org');
    expect(() => cohort.addPodLabel('team', 'a')).toThrow('expected none: a Cohort describes no pods; add pod labels to the jobs it admits');
  });
});

describe('kueue/cohort-cycle: chains of parents end at a root', () => {
  test('a cycle, a self-parent, a cohort and a ClusterQueue leading into a cycle', () => {
    expect(synthErrors(c => {
      new Cohort(c, 'A', { metadata: { name: 'a' }, parent: Cohort.fromName('b') });
      new Cohort(c, 'B', { metadata: { name: 'b' }, parent: Cohort.fromName('a') });
      new Cohort(c, 'C', { metadata: { name: 'c' }, parent: Cohort.fromName('c') });
      new Cohort(c, 'D', { metadata: { name: 'd' }, parent: Cohort.fromName('a') });
      new ClusterQueue(c, 'Q', { metadata: { name: 'q' }, cohort: Cohort.fromName('d'), resourceGroups: [] });
      new ClusterQueue(c, 'R', { metadata: { name: 'r' }, cohort: Cohort.fromName('c'), resourceGroups: [] });
    })).toBe(report(
      `[test/A] spec.parentName is "b"; expected a parent whose chain of parents ends at a root; "a" -> "b" -> "a" is a cycle; ${CYCLE}`,
      `[test/B] spec.parentName is "a"; expected a parent whose chain of parents ends at a root; "b" -> "a" -> "b" is a cycle; ${CYCLE}`,
      `[test/C] spec.parentName is "c"; expected the name of another cohort: a Cohort that is its own parent is a cycle; ${CYCLE}`,
      `[test/D] spec.parentName is "a"; expected a parent whose chain of parents ends at a root; "d" -> "a" -> "b" -> "a" runs into a cycle; ${CYCLE}`,
      '[test/Q] spec.cohortName is "d"; expected a cohort whose chain of parents ends at a root; "d" -> "a" -> "b" -> "a" runs into a cycle, so Kueue marks the ClusterQueue inactive and admits nothing through it',
      '[test/R] spec.cohortName is "c"; expected a cohort whose chain of parents ends at a root; "c" -> "c" is a cycle, so Kueue marks the ClusterQueue inactive and admits nothing through it',
    ));
  });

  test('a tree, and a parent the input does not define (an implicit root), have no findings', () => {
    expect(synthErrors(c => {
      const org = new Cohort(c, 'Org', { metadata: { name: 'org' }, parent: Cohort.fromName('elsewhere') });
      const team = new Cohort(c, 'Team', { metadata: { name: 'team' }, parent: org });
      new Cohort(c, 'Other', { metadata: { name: 'other' }, parent: org });
      new ClusterQueue(c, 'Q', { metadata: { name: 'q' }, cohort: team, resourceGroups: [] });
    })).toBeUndefined();
  });
});

describe('kueue/cohort-resource-groups: Kueue\'s Cohort webhook, at synth and in lint', () => {
  test('limits without a parent, a weight below 0', () => {
    expect(synthErrors(c => new Cohort(c, 'E', {
      metadata: { name: 'e' },
      fairSharingWeight: '-1',
      resourceGroups: [{ flavors: [{ flavor: new ResourceFlavor(c, 'F', { metadata: { name: 'f' } }), quotas: [gpus(4, 2, 8)] }] }],
    }))).toBe(report(
      '[test/E] spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit (resourceGroups) is 2; expected none without a parent cohort (spec.parentName): a borrowingLimit bounds what a Cohort borrows from or lends to its parent',
      '[test/E] spec.resourceGroups[0].flavors[0].resources[0].lendingLimit (resourceGroups) is 8; expected none without a parent cohort (spec.parentName): a lendingLimit bounds what a Cohort borrows from or lends to its parent',
      '[test/E] spec.fairSharing.weight (fairSharingWeight) is "-1"; expected a weight of 0 or more',
    ));
  });

  test('with a parent, a lending limit above the nominal quota is accepted (Kueue enforces that on ClusterQueues only)', () => {
    expect(synthErrors(c => new Cohort(c, 'E', {
      metadata: { name: 'e' },
      parent: Cohort.fromName('org'),
      resourceGroups: [{ flavors: [{ flavor: new ResourceFlavor(c, 'F', { metadata: { name: 'f' } }), quotas: [gpus(4, 2, 8)] }] }],
    }))).toBeUndefined();
  });

  test('in lint: a flavor twice, resources out of order, a negative quota, a weight that rounds to nothing', () => {
    expect(lint(
      { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ResourceFlavor', metadata: { name: 'a100' } },
      {
        apiVersion: 'kueue.x-k8s.io/v1beta2',
        kind: 'Cohort',
        metadata: { name: 'org' },
        spec: {
          fairSharing: { weight: '1e-10' },
          resourceGroups: [
            { coveredResources: ['cpu', 'memory'], flavors: [{ name: 'a100', resources: [{ name: 'memory', nominalQuota: '1Gi' }, { name: 'cpu', nominalQuota: '-1' }] }] },
            { coveredResources: ['nvidia.com/gpu'], flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: 8 }] }] },
          ],
        },
      },
    )).toEqual([
      'Cohort org: spec.resourceGroups[0].flavors[0].resources[0].name is "memory"; expected "cpu": a flavor lists its resources in the order of the group\'s coveredResources [kueue/cohort-resource-groups]',
      'Cohort org: spec.resourceGroups[0].flavors[0].resources[1].name is "cpu"; expected "memory": a flavor lists its resources in the order of the group\'s coveredResources [kueue/cohort-resource-groups]',
      'Cohort org: spec.resourceGroups[0].flavors[0].resources[1].nominalQuota is "-1"; expected a quantity of 0 or more [kueue/cohort-resource-groups]',
      'Cohort org: spec.resourceGroups[1].flavors[0].name is "a100"; expected each flavor in one resource group, once; it is listed earlier already [kueue/cohort-resource-groups]',
      'Cohort org: spec.fairSharing.weight is "1e-10"; expected 0 or a weight above 1n (0.000000001): a smaller one is too small for Kueue\'s share arithmetic [kueue/fair-sharing-weight]',
    ]);
  });
});

describe('lint judges v1beta1 input as it judges v1beta2', () => {
  /** One platform with a finding of every Kueue rule that reads a renamed field, in either version. */
  function platform(version: 'v1beta1' | 'v1beta2'): object[] {
    const apiVersion = `kueue.x-k8s.io/${version}`;
    const cohortField = version === 'v1beta1' ? { cohort: 'team' } : { cohortName: 'team' };
    const checks = version === 'v1beta1' ? { admissionChecks: ['multikueue'] } : { admissionChecksStrategy: { admissionChecks: [{ name: 'multikueue' }] } };
    return [
      { apiVersion, kind: 'ResourceFlavor', metadata: { name: 'a100' } },
      { apiVersion, kind: 'Cohort', metadata: { name: 'org' }, spec: { parentName: 'team' } },
      { apiVersion, kind: 'Cohort', metadata: { name: 'team' }, spec: { parentName: 'org' } },
      {
        apiVersion,
        kind: 'ClusterQueue',
        metadata: { name: 'vision' },
        spec: {
          ...cohortField,
          ...checks,
          namespaceSelector: {},
          resourceGroups: [{ coveredResources: ['nvidia.com/gpu'], flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: 8, lendingLimit: 16 }] }] }],
        },
      },
    ];
  }

  test('the same findings, rule by rule, for the same objects in both versions', () => {
    const v1beta2 = lint(...platform('v1beta2'));
    expect(v1beta2).toEqual([
      'Cohort org: spec.parentName is "team"; expected a parent whose chain of parents ends at a root; "org" -> "team" -> "org" is a cycle; Kueue accepts it and admits nothing through the ClusterQueues below (cohort has a cycle) [kueue/cohort-cycle]',
      'Cohort team: spec.parentName is "org"; expected a parent whose chain of parents ends at a root; "team" -> "org" -> "team" is a cycle; Kueue accepts it and admits nothing through the ClusterQueues below (cohort has a cycle) [kueue/cohort-cycle]',
      'ClusterQueue vision: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit is 16; expected at most the nominalQuota (8): a ClusterQueue lends only from its own quota [kueue/cluster-queue-quotas]',
      'ClusterQueue vision: spec.cohortName is "team"; expected a cohort whose chain of parents ends at a root; "team" -> "org" -> "team" is a cycle, so Kueue marks the ClusterQueue inactive and admits nothing through it [kueue/cohort-cycle]',
    ]);
    // v1beta1 names the cohort field `cohort`: the finding on it names the field the input has.
    // The finding that v1beta1 is no longer served from Kueue v0.20 (kueue/api-version-served) is the
    // one difference the version itself makes, so it is left out of the comparison.
    expect(lint(...platform('v1beta1')).filter(l => !l.endsWith('[kueue/api-version-served]'))
      .map(l => l.replace('spec.cohort is', 'spec.cohortName is'))).toEqual(v1beta2);
  });
});
