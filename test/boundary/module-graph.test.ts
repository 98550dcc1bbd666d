/**
 * Which module loads which around the boundary, read from the sources: static imports (not
 * `import type`, which loads nothing) and the `require()` calls that load a module on first use.
 * The public modules load the boundary (a construct checks its props); the boundary must not load
 * them back, not even lazily, or a first check can run while a public module is half loaded, and
 * the boundary needs a list of modules to load. The classes to guard reach it as the package's
 * exports instead (src/index.ts calls guardExports).
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const BOUNDARY = path.join(SRC, 'private', 'boundary');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The module a relative specifier names, or undefined for a package. */
function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find(f => fs.existsSync(f));
}

/** Each module's outgoing edges: what it loads when it is loaded, and what it may load later. */
function graph(): Map<string, Array<{ to: string; lazy: boolean }>> {
  const edges = new Map<string, Array<{ to: string; lazy: boolean }>>();
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const out: Array<{ to: string; lazy: boolean }> = [];
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s+)?'(\.[^']*)'/gm)) {
      const to = m[1] ? undefined : resolve(file, m[2]);
      if (to) out.push({ to, lazy: false });
    }
    for (const m of text.matchAll(/\brequire\('(\.[^']*)'\)/g)) {
      const to = resolve(file, m[1]);
      if (to) out.push({ to, lazy: true });
    }
    edges.set(file, out);
  }
  return edges;
}

const name = (file: string) => path.relative(ROOT, file).replace(/\.ts$/, '');
const isPublic = (file: string) => !path.relative(SRC, file).startsWith(`private${path.sep}`) && name(file) !== 'src/index';

test('the boundary loads no public module, at require() or later', () => {
  const edges = graph();
  const boundary = [...edges.keys()].filter(f => path.dirname(f) === BOUNDARY);
  expect(boundary.map(name)).toContain('src/private/boundary/install');
  // Everything the boundary's modules can load, following static and lazy edges.
  const reached = new Map<string, string>();
  const pending = boundary.map(f => [f, name(f)] as [string, string]);
  while (pending.length) {
    const [file, via] = pending.pop()!;
    for (const { to, lazy } of edges.get(file) ?? []) {
      if (reached.has(to)) continue;
      const chain = `${via} -> ${name(to)}${lazy ? ' (lazy)' : ''}`;
      reached.set(to, chain);
      pending.push([to, chain]);
    }
  }
  expect([...reached].filter(([file]) => isPublic(file)).map(([, chain]) => chain)).toEqual([]);
});

test('no module of src/ is part of a load cycle, counting the lazy requires', () => {
  const edges = graph();
  // Tarjan's strongly connected components: a component of more than one module is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = stack.splice(stack.indexOf(v));
      if (component.length > 1) cycles.push(component.map(name).sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  expect(cycles).toEqual([]);
});
