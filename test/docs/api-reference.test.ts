import * as fs from 'fs';
import * as path from 'path';
import { generate, groupOf, GROUPS, OTHER, ROOT_FILE, SUBMODULE_DIR } from '../../scripts/docgen';

/**
 * The API reference (API.md and docs/api/*.md) is written by scripts/docgen.ts from the compiled
 * assembly and committed. The test command compiles first, so `.jsii` is current and this
 * regenerates the reference in memory: run `npx projen docgen` after changing the public API.
 */
const root = path.join(__dirname, '..', '..');
const assembly = JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8')) as { name: string; types: Record<string, unknown> };
const rootTypes = Object.keys(assembly.types).filter(fqn => fqn.split('.').length === 2).map(fqn => fqn.split('.')[1]);

let files: Map<string, string>;
beforeAll(async () => {
  files = await generate(root);
}, 120_000);

test('the committed reference is what scripts/docgen.ts writes for the current API', () => {
  const committed = [ROOT_FILE, ...fs.readdirSync(path.join(root, SUBMODULE_DIR)).map(f => path.join(SUBMODULE_DIR, f))].sort();
  expect(committed).toEqual([...files.keys()].sort());
  const stale = [...files].filter(([file, text]) => fs.readFileSync(path.join(root, file), 'utf8') !== text).map(([file]) => file);
  expect(stale).toEqual([]);
});

test('every type of the root module is in a group of the table of contents', () => {
  expect(rootTypes.length).toBeGreaterThan(20);
  expect(rootTypes.filter(name => groupOf(name) === OTHER)).toEqual([]);
  expect(groupOf('DistributedPyTorch')).toBe('Training jobs');
  expect(groupOf('SomethingNew')).toBe(OTHER);
  // A type listed twice would be shown in the first group only.
  const listed = GROUPS.flatMap(g => g.types);
  expect(listed.filter((t, i) => listed.indexOf(t) !== i)).toEqual([]);
});

test('API.md holds the root module only, every type once in the contents and once as a heading', () => {
  const api = files.get(ROOT_FILE)!;
  const headings = [...api.matchAll(/^### (\S+) <a name="[^"]*" id="([^"]+)"><\/a>$/gm)].map(m => m[2]);
  expect(headings.sort()).toEqual(rootTypes.map(t => `${assembly.name}.${t}`).sort());
  const contents = [...api.matchAll(/^\| \[`(\w+)`\]\(#([^)]+)\) \|/gm)].map(m => m[2]);
  expect(contents.sort()).toEqual(headings.sort());
  expect([...api.matchAll(/^## (.+)$/gm)].map(m => m[1])).toEqual(['Contents', ...GROUPS.map(g => g.title)]);
});

test('no type heading names two types across the reference', () => {
  const names = [...files.values()].flatMap(text => [...text.matchAll(/^### (\S+) <a /gm)].map(m => m[1]));
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  expect(names).toEqual(expect.arrayContaining(['Workspace', 'notebooks.Workspace', 'WorkspaceKind', 'notebooks.WorkspaceKind', 'kubeflow.PyTorchJob']));
});

test('every link between the files reaches an anchor in the file it names', () => {
  const ids = new Map([...files].map(([file, text]) => [file, new Set([...text.matchAll(/ id="([^"]+)"/g)].map(m => m[1]))]));
  const broken: string[] = [];
  let crossFile = 0;
  for (const [file, text] of files) {
    for (const [, target, id] of text.matchAll(/href="([^"#]*)#([^"]+)"/g)) {
      const into = target ? path.normalize(path.join(path.dirname(file), target)) : file;
      if (target) crossFile++;
      if (!ids.get(into)?.has(id)) broken.push(`${file} -> ${target}#${id}`);
    }
  }
  expect(broken).toEqual([]);
  expect(crossFile).toBeGreaterThan(0);
});

test('usage blocks are shown in Python beside TypeScript', () => {
  const api = files.get(ROOT_FILE)!;
  expect(api).toMatch(/^```typescript\nimport \{ DistributedPyTorch \} from 'cdk8s-kubeflow'\n\nnew DistributedPyTorch\(scope: Construct, id: string, props: DistributedPyTorchProps\)\n```\n\n<details><summary>Python<\/summary>\n\n```python\nimport cdk8s_kubeflow\n\ncdk8s_kubeflow\.DistributedPyTorch\(\n/m);
  const ts = (api.match(/^```typescript$/gm) ?? []).length;
  const py = (api.match(/^```python$/gm) ?? []).length;
  expect(ts).toBeGreaterThan(100);
  expect(py).toBe(ts);
});
