/**
 * A refused call's stack starts at the caller: the first frame under the message is the line that
 * made the call (a method, a static factory or `new`), not a boundary wrapper, a check or the
 * library's constructors. The frames are read from the parsed `error.stack`, in the sources (as
 * ts-jest runs them) and in the compiled package in a fresh node.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Accelerator, DistributedPyTorch, MpiAllReduce, SpawnerImage, WorkspaceKind } from '../../src';

const IMAGE = 'registry.example.com/train:1.0';
const SOURCE = fs.readFileSync(__filename, 'utf8').split('\n');

/** The 1-based line of this file that carries `marker` (a comment on the call's line). */
function lineOf(marker: string): number {
  const lines = SOURCE.flatMap((text, i) => (text.includes(`// ${marker}`) && !text.includes('lineOf(') ? [i + 1] : []));
  if (lines.length !== 1) throw new Error(`marker ${marker} is on ${lines.length} lines`);
  return lines[0];
}

/** The message and the file and line of each frame of a stack V8 wrote. */
function parse(stack: string): { message: string; frames: Array<{ file: string; line: number }> } {
  const lines = stack.split('\n');
  const first = lines.findIndex(l => /^\s+at /.test(l));
  const frames = lines.slice(first).map(l => {
    const m = /\(?([^()\s]+):(\d+):\d+\)?$/.exec(l);
    return m ? { file: m[1], line: Number(m[2]) } : { file: l.trim(), line: 0 };
  });
  return { message: lines.slice(0, first).join('\n'), frames };
}

function refused(call: () => unknown): Error {
  try {
    call();
  } catch (e) {
    if (e instanceof Error) return e;
    throw e;
  }
  throw new Error('the call was not refused');
}

const chart = () => new Chart(Testing.app(), 'test');
const kind = (c: Chart) => new WorkspaceKind(c, 'kind', {
  displayName: 'JupyterLab', description: 'JupyterLab in a pod', icon: SpawnerImage.fromUrl('https://jupyter.org/favicon.png'),
});

class MyJob extends DistributedPyTorch {}

test.each([
  ['a method', 'call:method', 'test/kind: port.displayName is 5; expected a string', () => {
    const k = kind(chart());
    return refused(() => k.addPort({ id: 'lab', displayName: 5 as any })); // call:method
  }],
  ['a static factory', 'call:static', 'Accelerator.nvidia: count is "8"; expected a finite number',
    () => refused(() => Accelerator.nvidia('8' as any))], // call:static
  ['a constructor checked after super()', 'call:constructor', 'test/job: workers is "4"; expected a finite number', () => {
    const c = chart();
    return refused(() => new DistributedPyTorch(c, 'job', { image: IMAGE, workers: '4' as any })); // call:constructor
  }],
  ['a constructor checked before super()', 'call:before-super', 'test/job: workers is "4"; expected a finite number', () => {
    const c = chart();
    return refused(() => new MpiAllReduce(c, 'job', { image: IMAGE, workers: '4' as any })); // call:before-super
  }],
  ['a user\'s subclass of a construct', 'call:subclass', 'test/job: workers is "4"; expected a finite number', () => {
    const c = chart();
    return refused(() => new MyJob(c, 'job', { image: IMAGE, workers: '4' as any })); // call:subclass
  }],
  ['a field nested deeper than the stack trace limit of checks', 'call:nested',
    'test/job: worker.resources.accelerator is 8; expected an Accelerator: Accelerator.nvidia(count), Accelerator.amd(count), Accelerator.intel(count) or Accelerator.custom(resourceName, count)', () => {
      const c = chart();
      return refused(() => new DistributedPyTorch(c, 'job', { image: IMAGE, worker: { resources: { accelerator: 8 as any } } })); // call:nested
    }],
])('a refused call of %s has the caller as its first frame', (_what, marker, message, run) => {
  const error = run();
  const { message: shown, frames } = parse(error.stack ?? '');
  expect(shown).toBe(`Error: ${message}`);
  expect(frames[0]).toEqual({ file: __filename, line: lineOf(marker) });
});

test('the compiled package points a refused call at the caller\'s line too', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boundary-stack-'));
  const script = path.join(dir, 'caller.js');
  const entry = path.join(__dirname, '..', '..', 'lib', 'src', 'index.js');
  fs.writeFileSync(script, [
    `const kf = require(${JSON.stringify(entry)});`,
    `const { Chart, Testing } = require(${JSON.stringify(require.resolve('cdk8s'))});`,
    'const stacks = [];',
    'const run = f => { try { f(); } catch (e) { stacks.push(e.stack); } };',
    'run(() => kf.Accelerator.nvidia(\'8\'));',
    'run(() => new kf.DistributedPyTorch(new Chart(Testing.app(), \'test\'), \'job\', { image: \'x\', workers: \'4\' }));',
    'process.stdout.write(JSON.stringify(stacks));',
  ].join('\n'));
  try {
    const stacks: string[] = JSON.parse(execFileSync(process.execPath, [script], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' }));
    expect(stacks.map(s => ({ ...parse(s), frames: parse(s).frames.slice(0, 1) }))).toEqual([
      { message: 'Error: Accelerator.nvidia: count is "8"; expected a finite number', frames: [{ file: script, line: 5 }] },
      { message: 'Error: test/job: workers is "4"; expected a finite number', frames: [{ file: script, line: 6 }] },
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
