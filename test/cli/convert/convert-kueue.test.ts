/**
 * `convert` on Kueue objects: v1beta1 input read in its v1beta2 form, the six v1beta2 kinds by their
 * L2 constructs, linked to the objects they name (within a file and across files), every quota
 * factory, and each reason an object falls back to its typed L1 class, with the exact comment;
 * each module proven by synthesizing it (compared as Kueue reads both: kueueAsRead).
 * And the order cdk8s writes a chart's objects in, which the linking predicts, checked against
 * cdk8s itself.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { lintMessages, runModule, scratchFolder, synthesizeCharts, synthesizeModule, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { kueueAsRead } from '../../../src/cli/convert/convert-kueue';
import { cdk8sOrder } from '../../../src/cli/convert/convert-kueue-links';
import { normalised } from '../../../src/cli/convert/convert-typed';
import { EXIT } from '../../../src/cli/main';
import { tempFolder } from '../examples-output';
import { runCli } from '../run-cli';

const scratch = scratchFolder('converted-kueue');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const yaml = (...docs: string[]) => docs.join('---\n');
const TOPOLOGY = 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: dc}\nspec:\n  levels: [{nodeLabel: rack}, {nodeLabel: kubernetes.io/hostname}]\n';
const flavorYaml = (name: string, extra = '') => `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: ${name}}\nspec: {nodeLabels: {gpu: ${name}}${extra}}\n`;
const queueYaml = (name: string, flavors: string[], resources = '[{name: nvidia.com/gpu, nominalQuota: 8}]', covered = '[nvidia.com/gpu]') => [
  'apiVersion: kueue.x-k8s.io/v1beta1',
  'kind: ClusterQueue',
  `metadata: {name: ${name}}`,
  'spec:',
  '  namespaceSelector: {}',
  '  resourceGroups:',
  `    - coveredResources: ${covered}`,
  '      flavors:',
  ...flavors.map(f => `        - {name: ${f}, resources: ${resources}}`),
  '',
].join('\n');
const localQueueYaml = (name: string, clusterQueue: string) =>
  `apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: ${name}, namespace: ${name}}\nspec: {clusterQueue: ${clusterQueue}}\n`;

/** Converts `text` read from standard input and checks the module renders it, as data and in order. */
function convertText(text: string) {
  const result = runCli(['convert', '-'], text);
  expect(result.status).toBe(EXIT.OK);
  expect(synthesizeModule(result.stdout).map(kueueAsRead)).toStrictEqual(readDocuments(['-'], () => text).map(d => kueueAsRead(normalised(d.doc))));
  return result;
}

/** The comment lines above `new <construct>(..., '<id>'`, joined. */
function commentAbove(code: string, id: string): string {
  const lines = code.split('\n');
  const at = lines.findIndex(l => l.includes(`, '${id}', {`));
  expect(at).toBeGreaterThan(0);
  const out: string[] = [];
  for (let i = at - 1; lines[i].trim().startsWith('//'); i--) out.unshift(lines[i].trim().replace(/^\/\/ /, ''));
  return out.join(' ');
}

describe('a platform file: every object by its L2 construct', () => {
  const text = yaml(
    TOPOLOGY,
    flavorYaml('h100', ', nodeTaints: [{key: gpu, value: h100, effect: NoSchedule}], tolerations: [{key: gpu, operator: Exists, effect: NoExecute, tolerationSeconds: 60}], topologyName: dc'),
    flavorYaml('spot'),
    flavorYaml('fpga'),
    [
      'apiVersion: kueue.x-k8s.io/v1beta1',
      'kind: ClusterQueue',
      'metadata: {name: research, labels: {team: research}}',
      'spec:',
      '  cohort: gpus',
      '  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: research}}',
      '  queueingStrategy: StrictFIFO',
      '  fairSharing: {weight: "2"}',
      '  admissionChecks: [multikueue]',
      '  preemption: {reclaimWithinCohort: LowerPriority, withinClusterQueue: LowerOrNewerEqualPriority, borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}}',
      '  resourceGroups:',
      '    - coveredResources: [cpu, memory, ephemeral-storage, pods]',
      '      flavors:',
      '        - name: h100',
      '          resources:',
      '            - {name: cpu, nominalQuota: "64", borrowingLimit: 500m}',
      '            - {name: memory, nominalQuota: 1536Mi, lendingLimit: 1Gi}',
      '            - {name: ephemeral-storage, nominalQuota: 2Gi}',
      '            - {name: pods, nominalQuota: 10, borrowingLimit: 2, lendingLimit: 1}',
      '        - name: spot',
      '          resources:',
      '            - {name: cpu, nominalQuota: "1.5"}',
      '            - {name: memory, nominalQuota: 1024Mi}',
      '            - {name: ephemeral-storage, nominalQuota: 1Ti}',
      '            - {name: pods, nominalQuota: "10"}',
      '    - coveredResources: [nvidia.com/gpu, example.com/fpga, example.com/license]',
      '      flavors:',
      '        - name: fpga',
      '          resources:',
      '            - {name: nvidia.com/gpu, nominalQuota: 8, lendingLimit: 4}',
      '            - {name: example.com/fpga, nominalQuota: 2}',
      '            - {name: example.com/license, nominalQuota: "5", borrowingLimit: "1"}',
      '',
    ].join('\n'),
    localQueueYaml('research', 'research'),
    'apiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\nmetadata: {name: urgent}\nvalue: 1000\ndescription: first\n',
  );
  // The module's text is checked apart from running it (it names a Cohort, which needs the Cohort construct).
  const result = runCli(['convert', '-'], text);

  test('the module synthesizes the objects as Kueue reads them', () => {
    convertText(text);
  });

  test('the figures: all by their L2 construct', () => {
    expect(result.stderr).toBe([
      'cdk8s-kubeflow: converted 7 objects from 1 file',
      '  kueue.x-k8s.io/v1beta2 ClusterQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 LocalQueue: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 ResourceFlavor: 3 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 Topology: 1 by its L2 construct',
      '  kueue.x-k8s.io/v1beta2 WorkloadPriorityClass: 1 by its L2 construct',
      '',
    ].join('\n'));
  });

  test('the objects named are variables, the others are not; the imports are what the code uses', () => {
    expect(result.stdout.match(/^ {2}(const \w+ = )?new \w+\(stdinChart, '[^']+'/gm)).toEqual([
      '  const topologyDc = new KueueTopology(stdinChart, \'topology-dc\'',
      '  const flavorH100 = new ResourceFlavor(stdinChart, \'resourceflavor-h100\'',
      '  const flavorSpot = new ResourceFlavor(stdinChart, \'resourceflavor-spot\'',
      '  const flavorFpga = new ResourceFlavor(stdinChart, \'resourceflavor-fpga\'',
      '  const clusterQueueResearch = new ClusterQueue(stdinChart, \'clusterqueue-research\'',
      '  new LocalQueue(stdinChart, \'localqueue-research\'',
      '  new WorkloadPriorityClass(stdinChart, \'workloadpriorityclass-urgent\'',
    ]);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      'import { App, Chart, Size } from \'cdk8s\';',
      'import { Accelerator, ClusterQueue, Cohort, KueueTopology, LocalQueue, PreemptionPolicy, QueueingStrategy, ResourceFlavor, ResourceQuota, '
        + 'WorkloadPriorityClass } from \'cdk8s-kubeflow\';',
      'import { Cpu } from \'cdk8s-plus-28\';',
    ]);
  });

  test('each quota by the factory that writes its amounts back as given', () => {
    expect(result.stdout.match(/^ *ResourceQuota\..*$/gm)).toEqual([
      'ResourceQuota.cpu(Cpu.units(64), Cpu.millis(500)),',
      'ResourceQuota.memory(Size.mebibytes(1536), undefined, Size.gibibytes(1)),',
      'ResourceQuota.ephemeralStorage(Size.gibibytes(2)),',
      'ResourceQuota.pods(10, 2, 1),',
      // 1.5 CPUs, 1024Mi (which Size writes as 1Gi), Ti and a count written as a string: custom.
      'ResourceQuota.custom(\'cpu\', \'1.5\'),',
      'ResourceQuota.custom(\'memory\', \'1024Mi\'),',
      'ResourceQuota.custom(\'ephemeral-storage\', \'1Ti\'),',
      'ResourceQuota.custom(\'pods\', \'10\'),',
      'ResourceQuota.accelerator(Accelerator.nvidia(8), undefined, 4),',
      'ResourceQuota.accelerator(Accelerator.custom(\'example.com/fpga\', 2)),',
      'ResourceQuota.custom(\'example.com/license\', \'5\', \'1\'),',
    ].map(l => l.trim()).map(l => expect.stringContaining(l)));
  });

  test('the policies by their enum-like members, the links by variable', () => {
    for (const line of [
      'reclaimWithinCohort: PreemptionPolicy.LOWER_PRIORITY,',
      'withinClusterQueue: PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY,',
      'borrowWithinCohort: PreemptionPolicy.LOWER_PRIORITY,',
      'borrowWithinCohortMaxPriorityThreshold: 100,',
      'queueingStrategy: QueueingStrategy.STRICT_FIFO,',
      'fairSharingWeight: \'2\',',
      'topology: topologyDc,',
      'flavor: flavorH100,',
      'flavor: flavorSpot,',
      'flavor: flavorFpga,',
      'clusterQueue: clusterQueueResearch,',
      // The cohort is not in the input: named by name.
      'cohort: Cohort.fromName(\'gpus\'),',
      'admissionChecks: [\'multikueue\'],',
    ]) expect(result.stdout.split('\n').map(l => l.trim())).toContain(line);
  });

  test('the module type checks and passes the project\'s ESLint configuration', async () => {
    expect(typeErrors(new Map([['kueue_platform.ts', result.stdout]]), scratch)).toEqual([]);
    expect(await lintMessages([path.join(scratch, 'kueue_platform.ts')])).toEqual([]);
  });
});

test('flavor fungibility, which the ClusterQueue construct has no prop for: a JSON patch, in its v1beta2 form (Borrow is MayStopSearch)', () => {
  const result = convertText(yaml(
    flavorYaml('a'),
    queueYaml('gpus', ['a'], '[{name: cpu, nominalQuota: 9}]', '[cpu]').replace('spec:\n', 'spec:\n  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: TryNextFlavor}\n'),
    localQueueYaml('team', 'gpus'),
  ));
  expect(result.stderr).toContain('  kueue.x-k8s.io/v1beta2 ClusterQueue: 1 by its L2 construct with JSON patches\n');
  expect(result.stderr).toContain('  kueue.x-k8s.io/v1beta2 LocalQueue: 1 by its L2 construct\n');
  expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct has no prop for spec.flavorFungibility: a JSON patch adds it.');
  expect(result.stdout).toContain([
    '  });',
    '  clusterQueueGpus.apiObject.addJsonPatch(',
    '    JsonPatch.add(\'/spec/flavorFungibility\', {',
    '      whenCanBorrow: \'MayStopSearch\',',
    '      whenCanPreempt: \'TryNextFlavor\',',
    '    }),',
    '  );',
    '',
  ].join('\n'));
});

describe('each reason for the typed L1 class, in the comment above it', () => {
  test('a ClusterQueue whose flavor its file defines after it; the LocalQueue of that queue', () => {
    const result = convertText(yaml(queueYaml('gpus', ['a100']), flavorYaml('a100'), localQueueYaml('team', 'gpus')));
    expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct takes the ResourceFlavor a100 it names as a construct, '
      + 'and its file defines it after this one (cdk8s would write it first); its typed L1 class says it.');
    expect(commentAbove(result.stdout, 'localqueue-team')).toBe('The LocalQueue construct takes the ClusterQueue gpus it names as a construct, '
      + 'and convert leaves that object to its L1 too; its typed L1 class says it.');
    expect(result.stdout).toContain('\n  new ResourceFlavor(stdinChart, \'resourceflavor-a100\', {');
  });

  test('flavors listed in another order than the file\'s: cdk8s would reorder them', () => {
    const result = convertText(yaml(flavorYaml('a'), flavorYaml('b'), queueYaml('gpus', ['b', 'a'])));
    expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct would have cdk8s write ResourceFlavor b before '
      + 'ResourceFlavor a, against the input\'s order (cdk8s writes an object right before the first one that depends on it); its typed L1 class says it.');
  });

  test('an object between a flavor and the first queue that names it: cdk8s would move the flavor down', () => {
    const priority = 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\nmetadata: {name: low}\nvalue: 1\n';
    const result = convertText(yaml(flavorYaml('a'), priority, queueYaml('gpus', ['a'])));
    expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct would have cdk8s write WorkloadPriorityClass low before '
      + 'ResourceFlavor a, against the input\'s order (cdk8s writes an object right before the first one that depends on it); its typed L1 class says it.');
  });

  test('findings: the construct would refuse the object at synth', () => {
    const result = convertText(yaml(flavorYaml('a'), queueYaml('gpus', ['a', 'missing'])));
    expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct would refuse it at synth '
      + '(spec.resourceGroups[0].flavors[1].name is "missing"; expected a ResourceFlavor the input defines; the input defines "a". Without it the ClusterQueue admits nothing); '
      + 'its typed L1 class says it.');
  });

  test('what a construct does not say: a namespace on a cluster-scoped kind, a field it has no prop for', () => {
    const result = convertText(yaml(
      flavorYaml('a'),
      'apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: dc, namespace: x}\nspec: {levels: [{nodeLabel: rack}]}\n',
      queueYaml('stop', ['a']).replace('spec:\n', 'spec:\n  stopPolicy: Hold\n'),
    ));
    expect(commentAbove(result.stdout, 'topology-dc')).toBe('The Topology construct does not say metadata.namespace (the construct is cluster-scoped and '
      + 'writes none); its typed L1 class says it.');
    expect(commentAbove(result.stdout, 'clusterqueue-stop')).toBe('The ClusterQueue construct does not say spec.stopPolicy; its typed L1 class says it.');
    // The L1's enum member, not the string (LocalQueue's stopPolicy enum has the same values).
    expect(result.stdout).toContain('    stopPolicy: kueue.ClusterQueueSpecStopPolicy.HOLD,\n');
  });

  test('a name defined twice: the queue cannot tell which object it names', () => {
    const result = convertText(yaml(flavorYaml('a'), flavorYaml('a'), queueYaml('gpus', ['a'])));
    expect(commentAbove(result.stdout, 'clusterqueue-gpus')).toBe('The ClusterQueue construct takes the ResourceFlavor a it names as a construct, '
      + 'and the input defines it more than once; its typed L1 class says it.');
  });

  test('a Kueue kind the package does not type stays an ApiObject, in its v1beta2 form', () => {
    const result = convertText('apiVersion: kueue.x-k8s.io/v1beta1\nkind: AdmissionCheck\nmetadata: {name: prov}\nspec: {controllerName: kueue.x-k8s.io/provisioning-request, retryDelayMinutes: 15}\n');
    expect(result.stderr).toContain('kueue.x-k8s.io/v1beta2 AdmissionCheck: 1 as an ApiObject');
    expect(result.stdout).not.toContain('retryDelayMinutes');
  });
});

describe('across files: a chart is created after the charts whose objects its constructs name', () => {
  const dir = tempFolder({
    'a-team.yaml': yaml(localQueueYaml('team', 'gpus'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: team}\n'),
    'b-platform.yaml': yaml(flavorYaml('a100'), queueYaml('gpus', ['a100'])),
    'c-other.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n',
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const result = runCli(['convert', dir]);

  test('the LocalQueue names the ClusterQueue of a later file: that file\'s chart comes first, the others keep their order', () => {
    expect(result.status).toBe(EXIT.OK);
    expect([...result.stdout.matchAll(/new Chart\(app, '([^']+)'\)/g)].map(m => m[1])).toEqual(['b-platform', 'a-team', 'c-other']);
    expect(result.stdout).toContain('\n  new LocalQueue(aTeamChart, \'localqueue-team\', {\n    metadata: {\n      name: \'team\',\n      namespace: \'team\',\n    },\n'
      + '    clusterQueue: clusterQueueGpus,\n  });\n');
  });

  test('each chart synthesizes the objects of its file, in order', () => {
    const byFile = new Map(['a-team', 'b-platform', 'c-other'].map(f => [f, readDocuments([path.join(dir, `${f}.yaml`)]).map(d => kueueAsRead(normalised(d.doc)))]));
    expect(synthesizeCharts(result.stdout).map(([id, docs]) => [id, docs.map(kueueAsRead)])).toStrictEqual(['b-platform', 'a-team', 'c-other'].map(f => [f, byFile.get(f)]));
  });

  test('charts that would depend on each other both ways: the second link is not made', () => {
    const cycle = tempFolder({
      'one.yaml': yaml(flavorYaml('a'), queueYaml('first', ['b'])),
      'two.yaml': yaml(flavorYaml('b'), queueYaml('second', ['a'])),
    });
    try {
      const out = runCli(['convert', cycle]);
      expect(out.status).toBe(EXIT.OK);
      expect(commentAbove(out.stdout, 'clusterqueue-first')).toBe('');
      expect(commentAbove(out.stdout, 'clusterqueue-second')).toBe('The ClusterQueue construct takes the ResourceFlavor a it names as a construct, and its '
        + 'file already depends on this one (cdk8s refuses charts that depend on each other both ways); its typed L1 class says it.');
      expect(synthesizeCharts(out.stdout).map(([id]) => id)).toEqual(['two', 'one']);
      // A real synth (cdk8s throws on charts that depend on each other both ways), which numbers the files of dependent charts.
      const outdir = fs.mkdtempSync(path.join(scratch, 'synth-'));
      const app = runModule(out.stdout, new App({ outdir }));
      app.synth();
      expect(fs.readdirSync(outdir).sort()).toEqual(['0000-two.k8s.yaml', '0001-one.k8s.yaml']);
    } finally {
      fs.rmSync(cycle, { recursive: true, force: true });
    }
  });
});

test('cdk8sOrder is the order cdk8s writes a chart\'s objects in, for dependency sets of every shape', () => {
  // A small deterministic generator: 200 charts of 2 to 7 objects, each object depending on some earlier or later ones (no cycles).
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let round = 0; round < 200; round++) {
    const size = 2 + Math.floor(next() * 6);
    const rank = [...Array(size).keys()].sort(() => next() - 0.5);
    const dependencies = new Map<number, number[]>();
    for (let n = 0; n < size; n++) {
      const on = [...Array(size).keys()].filter(d => rank[d] < rank[n] && next() < 0.35).sort(() => next() - 0.5);
      if (on.length > 0) dependencies.set(n, on);
    }
    const chart = new Chart(new App(), 'c');
    const objects = [...Array(size).keys()].map(n => new ApiObject(chart, `o${n}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `o${n}` } }));
    for (const [n, on] of dependencies) for (const d of on) objects[n].node.addDependency(objects[d]);
    expect([round, cdk8sOrder(size, dependencies)]).toEqual([round, chart.toJson().map((o: any) => Number(o.metadata.name.slice(1)))]);
  }
});
