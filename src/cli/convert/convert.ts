/**
 * `cdk8s-kubeflow convert FILE...`: a TypeScript cdk8s module that writes the objects of existing
 * YAML. One chart per input file (convert-reader.ts says why), one statement per object from the
 * mapper of its kind (convert-mappers.ts), and the figures of how each object was said. Kueue
 * objects of v1beta1, which Kueue v0.20 and later do not serve, are read in their v1beta2 form
 * (src/rules/kueue/v1beta2-form.ts) and written as v1beta2.
 */
import { quoteString } from './convert-code';
import { planKueue } from './convert-kueue-links';
import { Statement, Tier, mapperFor } from './convert-mappers';
import { chartInputs } from './convert-reader';
import { runtimesNamedAhead } from './convert-runtime';
import { InputDocument } from '../shared/input';
import { lint } from '../lint/lint';
import { KUEUE_V1BETA1 } from '../../rules/kueue/api';
import { KUEUE_API_VERSION_SERVED } from '../../rules/kueue/api-version-served';
import { kueueV1beta2Form } from '../../rules/kueue/v1beta2-form';

/** The generated module and what it holds. */
export interface Conversion {
  readonly code: string;
  readonly files: number;
  readonly objects: number;
  /** Objects per `apiVersion kind` and tier. */
  readonly tiers: ReadonlyArray<{ readonly kind: string; readonly tier: Tier; readonly objects: number }>;
}

const INDENT = '  ';

/** The module for the documents (which must all be objects: chartInputs throws otherwise). */
export function convert(input: readonly InputDocument[]): Conversion {
  const read = new Map<any, any>(input.map(d => [d.doc, d.doc?.apiVersion === KUEUE_V1BETA1 ? kueueV1beta2Form(d.doc).doc : d.doc]));
  const docs = input.map(d => ({ ...d, doc: read.get(d.doc) }));
  const charts = chartInputs(docs);
  // What lint finds in each object: an L2 construct would refuse an object with findings at synth.
  // Lint reads the input as written; that v1beta1 is not served is what convert fixes.
  const findings = new Map<any, string[]>();
  for (const f of lint(input).findings.filter(x => x.rule !== KUEUE_API_VERSION_SERVED.id)) {
    for (const d of input.filter(x => x.file === f.file && x.doc?.kind === f.kind && (x.doc?.metadata?.name ?? '') === f.name
      && (x.doc?.metadata?.namespace ?? '') === f.namespace)) {
      findings.set(read.get(d.doc), [...findings.get(read.get(d.doc)) ?? [], f.message]);
    }
  }
  const imports = new Map<string, Set<string>>([['cdk8s', new Set(['App', 'Chart'])]]);
  const counts = new Map<string, number>();
  const body: string[] = [];
  const kueue = planKueue(charts, findings, new Set(charts.map(c => c.variable)));
  const runtimes = runtimesNamedAhead(charts);
  for (const chart of kueue.charts) {
    if (body.length > 0) body.push('');
    body.push(`// ${chart.file}`);
    body.push(`const ${chart.variable} = new Chart(app, ${quoteString(chart.id)});`);
    for (const o of chart.objects) {
      const planned = kueue.mappings.get(o.doc) ?? runtimes.get(o.doc);
      const statement: Statement = mapperFor(o.doc, planned)(o.doc, chart.variable, o.id, findings.get(o.doc) ?? []);
      for (const i of statement.imports) {
        const [module, name] = i.split(' ');
        imports.set(module, (imports.get(module) ?? new Set()).add(name));
      }
      const count = `${statement.kind}\t${statement.tier}`;
      counts.set(count, (counts.get(count) ?? 0) + 1);
      body.push(...statement.lines);
    }
  }
  const files = [...new Set(docs.map(d => d.file))];
  const code = [
    ...importLines(imports),
    '',
    `/** The objects of ${files.length === 1 ? files[0] : `${files.length} files`}, converted by cdk8s-kubeflow convert. */`,
    'export default function (app: App): void {',
    ...body.map(l => (l === '' ? '' : `${INDENT}${l}`.replace(/\n/g, `\n${INDENT}`))),
    '}',
    '',
  ].join('\n');
  const tiers = [...counts].map(([k, objects]) => {
    const [kind, tier] = k.split('\t');
    return { kind, tier: tier as Tier, objects };
  }).sort((a, b) => (a.kind === b.kind ? a.tier.localeCompare(b.tier) : a.kind.localeCompare(b.kind)));
  return { code, files: files.length, objects: charts.reduce((n, c) => n + c.objects.length, 0), tiers };
}

/** The import lines, modules and names in the order ESLint's import/order and sort rules want. */
function importLines(imports: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
  return [...imports.keys()].sort(byName).map(m => `import { ${[...imports.get(m)!].sort(byName).join(', ')} } from '${m}';`);
}

/** The figures of a conversion, for standard error: objects by kind and by how they are said. */
export function conversionSummary(c: Conversion): string {
  const lines = c.tiers.map(t => `  ${t.kind}: ${t.objects} ${TIER_TEXT[t.tier]}`);
  return `cdk8s-kubeflow: converted ${c.objects} object${c.objects === 1 ? '' : 's'} from ${c.files} file${c.files === 1 ? '' : 's'}\n${lines.map(l => `${l}\n`).join('')}`;
}

const TIER_TEXT: { readonly [tier in Tier]: string } = {
  'l2': 'by its L2 construct',
  'l2+patch': 'by its L2 construct with JSON patches',
  'l1': 'by its typed L1 class',
  'l1+patch': 'by its typed L1 class with JSON patches',
  'api-object': 'as an ApiObject',
};
