/**
 * Writes, beside each file of dist/ that holds TrainJobs, `<file>.intent.json`: what each job's
 * props asked for (src/trainer/internal/intent.ts), keyed by `namespace/name`, for the Trainer
 * oracle in conformance/trainer. Run after `npm run synth`: it builds the examples app again in
 * this process (the cdk8s CLI synthesizes in a child process, where the records stay), renders
 * each TrainJob and requires the rendering to be the document dist/ holds, so a record is never
 * paired with another job's manifest.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, YamlOutputType } from 'cdk8s';
import * as yaml from 'js-yaml';
import { buildExamples } from '../examples/main';
import { intentOf, TrainJobIntent } from '../src/trainer/internal/intent';

const root = path.join(__dirname, '..');
const dist = path.resolve(root, process.env.SYNTH_OUTDIR ?? 'dist');

const key = (doc: any) => `${doc?.metadata?.namespace ?? 'default'}/${doc?.metadata?.name}`;

const app = buildExamples(new App({ outdir: dist, yamlOutputType: YamlOutputType.FILE_PER_CHART }));
const rendered = new Map<string, { doc: any; intent: TrainJobIntent }>();
for (const c of app.node.findAll()) {
  if (!(c instanceof ApiObject) || c.kind !== 'TrainJob') continue;
  const doc = c.toJson();
  const intent = intentOf(doc);
  if (intent) rendered.set(key(doc), { doc, intent });
}

let written = 0;
for (const file of fs.readdirSync(dist).filter(f => f.endsWith('.yaml')).sort()) {
  const docs = yaml.loadAll(fs.readFileSync(path.join(dist, file), 'utf8')) as any[];
  const intents: { [key: string]: TrainJobIntent } = {};
  for (const doc of docs.filter(d => d?.kind === 'TrainJob')) {
    const found = rendered.get(key(doc));
    if (!found) continue;
    // Through YAML both ways, as dist/ was written: the same job or the examples changed since synth.
    if (JSON.stringify(yaml.load(yaml.dump(found.doc))) !== JSON.stringify(doc)) {
      throw new Error(`${file}: TrainJob ${key(doc)} is not what the examples render now; run \`npm run synth\` first`);
    }
    intents[key(doc)] = found.intent;
  }
  const sidecar = path.join(dist, file.replace(/\.yaml$/, '.intent.json'));
  if (Object.keys(intents).length === 0) {
    fs.rmSync(sidecar, { force: true });
    continue;
  }
  fs.writeFileSync(sidecar, JSON.stringify(intents, null, 2) + '\n');
  written += Object.keys(intents).length;
}
console.log(`${written} TrainJob intents written beside ${path.relative(root, dist) || '.'}/*.yaml`);
