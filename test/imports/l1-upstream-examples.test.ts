/**
 * No silent drops: every upstream example manifest, rebuilt through the typed L1 props, must
 * synthesize back to itself, and must pass the strict validator.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES as EXAMPLES, UPSTREAM_EXAMPLES_V2 as EXAMPLES_V2 } from '../../scripts/upstream/pins';
import { schemaFor, synthManifests, validateManifest } from '../harness';
import { dropNulls, jsonDifferences, l1KindFor, propsFromJson, withoutPaths } from '../harness/l1-from-json';


/**
 * The one upstream example whose pod templates carry stale `apiVersion: v1` / `kind: Pod` keys
 * (a leftover of an older API). PodTemplateSpec has no such fields, so the API server prunes them;
 * the L1 cannot carry them either. These four keys, and nothing else, may be lost.
 */
const STALE_TEMPLATE_KEYS: Record<string, string[]> = {
  'training-operator/xgboost/smoke-dist/xgboostjob_v1alpha1_rabit_test.yaml': ['Master', 'Worker']
    .flatMap(role => ['apiVersion', 'kind'].map(key => `spec.xgbReplicaSpecs.${role}.template.${key}`)),
};

/**
 * Upstream documents that are themselves invalid against the pinned CRDs, with their exact errors.
 * The strict validator rejects what the API server would prune without a word.
 */
const INVALID_UPSTREAM: Record<string, string[]> = {
  'training-operator/xgboost/smoke-dist/xgboostjob_v1alpha1_rabit_test.yaml': [
    'spec.xgbReplicaSpecs.Master.template.apiVersion: unknown field',
    'spec.xgbReplicaSpecs.Master.template.kind: unknown field',
    'spec.xgbReplicaSpecs.Worker.template.apiVersion: unknown field',
    'spec.xgbReplicaSpecs.Worker.template.kind: unknown field',
  ],
};

interface Example {
  readonly file: string;
  readonly index: number;
  readonly doc: any;
}

function findYaml(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap(e => (e.isDirectory() ? findYaml(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

function loadExamples(): Example[] {
  // The Trainer v2 corpus (v2.3.0 runtimes and jobs) is labelled `upstream-v2/<file>`.
  const roots: Array<[string, string]> = [[EXAMPLES, ''], [EXAMPLES_V2, 'upstream-v2/']];
  return roots.flatMap(([root, prefix]) => findYaml(root).map(full => [root, prefix, full] as const)).flatMap(([root, prefix, full]) => {
    const file = prefix + path.relative(root, full).split(path.sep).join('/');
    return yaml.loadAll(fs.readFileSync(full, 'utf8'))
      .filter(doc => doc !== null && doc !== undefined)
      .map((doc, index) => ({ file, index, doc }));
  });
}

/** Why a document cannot go through a generated L1, or undefined when it can. */
function skipReason(doc: any): string | undefined {
  if (!['kubeflow.org/v1', 'kubeflow.org/v1beta1', 'trainer.kubeflow.org/v1alpha1'].includes(doc?.apiVersion)) {
    return `apiVersion ${doc?.apiVersion} is not one the L1s are generated for`;
  }
  if (!l1KindFor(doc.apiVersion, doc.kind) || !schemaFor(doc.apiVersion, doc.kind)) {
    return `no generated L1 for ${doc.apiVersion} ${doc.kind}`;
  }
  return undefined;
}

const examples = loadExamples();
const usable = examples.filter(e => !skipReason(e.doc));
const label = (e: Example) => (e.index === 0 ? e.file : `${e.file}#${e.index}`);

test('the corpus is there and every skip is explained', () => {
  const skipped = examples.filter(e => skipReason(e.doc)).map(e => `${label(e)}: ${skipReason(e.doc)}`);
  const byKind = new Map<string, number>();
  for (const e of usable) byKind.set(e.doc.kind, (byKind.get(e.doc.kind) ?? 0) + 1);
  console.log([
    `upstream examples: ${examples.length} documents, ${usable.length} checked, ${skipped.length} skipped`,
    `  checked per kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    ...skipped.map(s => `  skipped ${s}`),
  ].join('\n'));
  expect(usable.length).toBeGreaterThan(0);
  // Every document of the pinned corpora has a generated L1 today; one that has none must be
  // listed here with its reason.
  expect(skipped).toEqual([]);
  // Every special case names a file that exists, so a renamed example cannot silently lose its check.
  for (const file of [...Object.keys(STALE_TEMPLATE_KEYS), ...Object.keys(INVALID_UPSTREAM)]) {
    expect(examples.map(e => e.file)).toContain(file);
  }
});

test('the comparison catches a quantity handed over as a plain string', () => {
  // The trap the design warns about: a raw JSON quantity in typed props loses its value (the
  // generated map serializer reads `.value` of a string, and the YAML then says `memory: null`).
  const doc = {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'raw' },
    spec: { pytorchReplicaSpecs: { Worker: { replicas: 1, template: { spec: { containers: [{ name: 'pytorch', image: 'i', resources: { limits: { memory: '1Gi' } } }] } } } } },
  };
  const [synthesized] = synthManifests(app => {
    new (l1KindFor(doc.apiVersion, doc.kind)!.construct)(new Chart(app, 'raw'), 'raw', { metadata: doc.metadata, spec: doc.spec });
  });
  expect(jsonDifferences(doc, synthesized)).toEqual([
    'spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.limits.memory: expected "1Gi", got null',
  ]);
});

describe.each(usable.map(e => [label(e), e] as const))('%s', (_name, example) => {
  const schema = schemaFor(example.doc.apiVersion, example.doc.kind)!;
  const l1 = l1KindFor(example.doc.apiVersion, example.doc.kind)!;
  const { props, unknownFields } = propsFromJson(example.doc, schema);
  const mayLose = STALE_TEMPLATE_KEYS[example.file] ?? [];

  // Through the real YAML output, so that what is compared is what a user would commit.
  const [synthesized, ...others] = synthManifests(app => {
    new l1.construct(new Chart(app, 'example'), 'example', props);
  });

  test('only the known fields fall outside the schema', () => {
    expect(unknownFields).toEqual(mayLose);
  });

  test(`${l1.module}.${l1.className} synthesizes the example back, field for field`, () => {
    expect(others).toEqual([]);
    const expected = withoutPaths(dropNulls(example.doc), mayLose);
    expect(jsonDifferences(expected, synthesized)).toEqual([]);
    // The lost fields are really lost (and not, say, renamed somewhere else).
    expect(jsonDifferences(dropNulls(example.doc), synthesized)).toEqual(mayLose.map(p => `${p}: missing`));
  });

  test('the upstream document is valid against the pinned CRD, except where listed', () => {
    expect(validateManifest(dropNulls(example.doc))).toEqual(INVALID_UPSTREAM[example.file] ?? []);
  });

  test('the synthesized document is valid against the pinned CRD', () => {
    expect(validateManifest(synthesized)).toEqual([]);
  });
});
