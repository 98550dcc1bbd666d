import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import * as lib from '../../src';

/**
 * Every TypeScript snippet in README.md and docs/**.md type-checks against the library and runs.
 * A snippet with its own imports stands alone (`cdk8s-kubeflow` is resolved to src/); one without
 * gets the imports a reader would have and an `app` and a `chart` to put things in.
 */
const root = path.join(__dirname, '..', '..');
const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs'), { recursive: true })
  .map(f => path.join('docs', String(f))).filter(f => f.endsWith('.md')).sort()];

interface Snippet { readonly source: string; readonly line: number; readonly code: string }

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const file of docs) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const re = /^```ts\n([\s\S]*?)^```$/gm;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const line = text.slice(0, m.index).split('\n').length;
      // A snippet that starts with `// ...continued` goes on from the one before it on the page.
      const previous = out[out.length - 1];
      const code = m[1].startsWith('// ...continued') && previous?.source === file ? `${previous.code}\n${m[1]}` : m[1];
      out.push({ source: file, line, code });
    }
  }
  return out;
}

const library = Object.keys(lib).filter(k => /^[A-Za-z]\w*$/.test(k));

const dir = fs.mkdtempSync(path.join(root, 'test', '.snippets-'));

/**
 * The program for a snippet. One that makes its own App stands alone; any other gets what a
 * reader has at that point of the page: the imports it does not write itself, an `app` whose
 * output goes to a temporary folder, a `chart`, and an `app.synth()` at the end.
 */
function program(s: Snippet): string {
  const code = s.code.replace(/from 'cdk8s-kubeflow'/g, "from '../../src'");
  if (/new (?:App|StableFileNamesApp)\(/.test(code)) return code;
  const imported = new Set([...code.matchAll(/^import (?:\{([^}]*)\}|\* as (\w+)) from/gm)]
    .flatMap(m => (m[1] ?? m[2]).split(',').map(n => n.trim()).filter(Boolean)));
  const missing = (names: string[]) => names.filter(n => !imported.has(n));
  const lines = [
    `import { ${missing(['App', 'Chart', 'Duration', 'Size']).join(', ')} } from 'cdk8s';`,
    ...missing(['kplus']).map(() => "import * as kplus from 'cdk8s-plus-28';"),
    ...missing(['k8s']).map(() => "import { k8s } from 'cdk8s-plus-28';"),
    `import { ${missing(library).join(', ')} } from '../../src';`,
    "import { mkdtempSync } from 'fs';",
    "import { tmpdir } from 'os';",
    "import { join } from 'path';",
    code,
    "const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'snippet-')) });",
    "const chart = new Chart(app, 'readme');",
  ];
  // Imports first, then the app, then the snippet's statements, then synthesis.
  const isImport = (l: string) => /^import /.test(l);
  const all = lines.join('\n').split('\n');
  const body = code.split('\n').filter(l => !isImport(l));
  return [...all.filter(isImport), all[all.length - 2], all[all.length - 1], ...body, 'app.synth();'].join('\n');
}

const all = snippets();
const files = all.map((s, i) => {
  const file = path.join(dir, `snippet${i}.ts`);
  fs.writeFileSync(file, program(s));
  return file;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the docs hold TypeScript snippets', () => {
  expect(all.length).toBeGreaterThanOrEqual(8);
});

test('every snippet type-checks', () => {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.dev.json'), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const checked = ts.createProgram(files, { ...options, noUnusedLocals: false, noEmit: true });
  const problems = ts.getPreEmitDiagnostics(checked)
    .filter(d => d.file && files.includes(path.resolve(d.file.fileName)))
    .map(d => {
      const i = files.indexOf(path.resolve(d.file!.fileName));
      return `${all[i].source}:${all[i].line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  expect(problems).toEqual([]);
});

test.each(all.map((s, i) => [`${s.source}:${s.line}`, i] as const))('%s runs and synthesizes', (_where, i) => {
  const outdir = fs.mkdtempSync(path.join(dir, 'out-'));
  const cwd = process.cwd();
  process.chdir(outdir); // standalone snippets that call app.synth() write to ./dist
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => require(files[i]));
  } finally {
    process.chdir(cwd);
  }
});
