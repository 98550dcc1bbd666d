/**
 * `cdk8s-kubeflow convert FILE...`: a TypeScript cdk8s module that writes the objects of existing
 * YAML. One chart per input file (convert-reader.ts says why), one statement per object from the
 * mapper of its kind (convert-mappers.ts), and the figures of how each object was said. Kueue
 * objects of v1beta1, which Kueue v0.20 and later do not serve, are read in their v1beta2 form
 * (src/rules/kueue/v1beta2-form.ts) and written as v1beta2.
 */
import { quoteString } from './convert-code';
import { planKueue } from './convert-kueue-links';
import type { L2Mapping } from './convert-l2-mapping';
import { Statement, Tier, mapperFor } from './convert-mappers';
import { ChartInput, chartInputs } from './convert-reader';
import { runtimesNamedAhead } from './convert-runtime';
import type { Finding } from '../../rules/finding';
import { KUEUE_V1BETA1 } from '../../rules/kueue/api';
import { KUEUE_API_VERSION_SERVED } from '../../rules/kueue/api-version-served';
import { kueueV1beta2Form } from '../../rules/kueue/v1beta2-form';
import { InputDocument } from '../base/input';
import { lint } from '../lint/lint';

/** The generated module and what it holds. */
export interface Conversion {
  readonly code: string;
  readonly files: number;
  readonly objects: number;
  /** Objects per `apiVersion kind` and tier. */
  readonly tiers: ReadonlyArray<{ readonly kind: string; readonly tier: Tier; readonly objects: number }>;
}

const INDENT = '  ';

/**
 * What convert knows of the input, filled in by the passes in order. Objects are keyed by the
 * object convert reads (`read`), so every pass finds an object's facts by the object itself.
 */
interface ConvertModel {
  /** The documents as given: lint reads these. */
  readonly input: readonly InputDocument[];
  /** The object convert reads of each input document: a v1beta1 Kueue object in its v1beta2 form, else the document. */
  readonly read: Map<any, any>;
  /** One chart per input file, in input order. */
  charts: readonly ChartInput[];
  /** The charts in the order the module creates them (a chart after those whose Kueue objects it names). */
  order: readonly ChartInput[];
  /** What lint finds in each object (an L2 construct would refuse an object with findings at synth). */
  readonly findings: Map<any, Finding[]>;
  /** The L2 code, or why there is none, of the objects whose construct depends on other objects of the input. */
  readonly planned: Map<any, L2Mapping>;
  /** Each chart's statements, in the order the module writes them. */
  readonly statements: Array<{ readonly chart: ChartInput; readonly statements: Statement[] }>;
}

/** One step of the conversion. */
interface ConvertPass {
  /** What the pass does, for a reader of the list. */
  readonly does: string;
  run(model: ConvertModel): void;
}

/** The passes, in the order they run: each reads what the ones before it wrote into the model. */
const PASSES: readonly ConvertPass[] = [
  {
    does: 'read each v1beta1 Kueue object in its v1beta2 form, which convert writes (Kueue v0.20 and later serve no v1beta1)',
    run: m => {
      for (const d of m.input) m.read.set(d.doc, d.doc?.apiVersion === KUEUE_V1BETA1 ? kueueV1beta2Form(d.doc).doc : d.doc);
    },
  },
  {
    does: 'group the objects into one chart per input file (a document that is not an object stops the conversion)',
    run: m => {
      m.charts = chartInputs(m.input.map(d => ({ ...d, doc: m.read.get(d.doc) })));
      m.order = m.charts;
    },
  },
  {
    does: 'give each object what lint finds in it, matched by the document and the rule id',
    run: m => {
      // Lint reads the input as written; that v1beta1 is not served is what convert fixes.
      for (const f of lint(m.input).findings.filter(x => x.rule !== KUEUE_API_VERSION_SERVED.id)) {
        const object = m.read.get(m.input[f.document].doc);
        m.findings.set(object, [...m.findings.get(object) ?? [], f]);
      }
    },
  },
  {
    does: 'plan the Kueue objects with the objects they name, and order the charts so that a chart follows those it names',
    run: m => {
      const kueue = planKueue(m.charts, m.findings, new Set(m.charts.map(c => c.variable)));
      kueue.mappings.forEach((mapping, doc) => m.planned.set(doc, mapping));
      m.order = kueue.charts;
    },
  },
  {
    does: 'leave to their L1 the runtimes a TrainJob names before them (its construct would refuse them)',
    run: m => {
      runtimesNamedAhead(m.charts).forEach((mapping, doc) => {
        if (!m.planned.has(doc)) m.planned.set(doc, mapping);
      });
    },
  },
  {
    does: 'say each object by the mapper of its kind',
    run: m => {
      for (const chart of m.order) {
        m.statements.push({
          chart,
          statements: chart.objects.map(o => mapperFor(o.doc, m.planned.get(o.doc))(o.doc, chart.variable, o.id, m.findings.get(o.doc) ?? [])),
        });
      }
    },
  },
];

/** The module for the documents (which must all be objects: the chart pass throws otherwise). */
export function convert(input: readonly InputDocument[]): Conversion {
  const model: ConvertModel = { input, read: new Map(), charts: [], order: [], findings: new Map(), planned: new Map(), statements: [] };
  for (const pass of PASSES) pass.run(model);
  return moduleOf(model);
}

/** The module's code and figures, from the statements of the model. */
function moduleOf(model: ConvertModel): Conversion {
  const imports = new Map<string, Set<string>>([['cdk8s', new Set(['App', 'Chart'])]]);
  const counts = new Map<string, number>();
  const body: string[] = [];
  for (const { chart, statements } of model.statements) {
    if (body.length > 0) body.push('');
    body.push(`// ${chart.file}`);
    body.push(`const ${chart.variable} = new Chart(app, ${quoteString(chart.id)});`);
    for (const statement of statements) {
      for (const i of statement.imports) {
        const [module, name] = i.split(' ');
        imports.set(module, (imports.get(module) ?? new Set()).add(name));
      }
      const count = `${statement.kind}\t${statement.tier}`;
      counts.set(count, (counts.get(count) ?? 0) + 1);
      body.push(...statement.lines);
    }
  }
  const files = [...new Set(model.input.map(d => d.file))];
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
  return { code, files: files.length, objects: model.charts.reduce((n, c) => n + c.objects.length, 0), tiers };
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
