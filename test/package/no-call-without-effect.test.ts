/**
 * No call without an effect: every prop of every construct's props (nested structs by path), of
 * every struct a static factory or a method takes, and of the platform defaults, and every public
 * method and setter of every construct and replica group, read from the jsii assembly, is given a
 * sample value over a minimal construction and synthesized against the same construction without
 * it. Each changes the manifest, or is refused with the library's message (REFUSED, exact), or is
 * inert by design (INERT, with the reason). A new member with no sample, no effect and no entry
 * fails here by name; so does an entry whose member has an effect now (the tables only shrink).
 * The tables: call-effects/roots.ts (where each struct is given), samples.ts, decided.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { allClasses, allStructs, classMembers, ownBase } from './call-effects/assembly';
import { INERT, REFUSED } from './call-effects/decided';
import { holders, structsReached, walk, Walked } from './call-effects/walk';

const walked: Walked[] = walk();
const byEffect = (effect: string) => walked.filter(w => w.outcome.effect === effect);
const members = (list: Walked[]) => list.map(w => w.member);

test('every member has a sample value (a new prop or method adds one to call-effects/samples.ts)', () => {
  expect(members(byEffect('no sample'))).toEqual([]);
});

test('every baseline synthesizes, and every refusal is the library\'s message, never a TypeError', () => {
  expect(byEffect('broken').map(w => `${w.member}: ${(w.outcome as { message: string }).message}`)).toEqual([]);
});

test('a member that changes nothing is inert by design, with its reason, and every inert entry still changes nothing', () => {
  expect(members(byEffect('none')).sort()).toEqual(Object.keys(INERT).sort());
  for (const reason of Object.values(INERT)) expect(reason.length).toBeGreaterThan(40);
});

test('a member the construct refuses is refused with the listed message, and every listed refusal still is one', () => {
  const refused = Object.fromEntries(byEffect('refused').map(w => [w.member, (w.outcome as { message: string }).message]));
  expect(refused).toEqual(REFUSED);
});

test('every struct of the assembly is walked (as a construct\'s props, nested in one, or at the factory or method that takes it)', () => {
  const reached = structsReached();
  expect(allStructs().filter(s => !reached.has(s))).toEqual([]);
});

test('every class with public methods or setters is walked (itself, or the constructs that extend it)', () => {
  const walkedClasses = new Set(holders().flatMap(h => {
    const chain: string[] = [];
    for (let c: string | undefined = h.className; c; c = ownBase(c)) chain.push(c);
    return chain;
  }));
  expect(allClasses().filter(c => classMembers(c).length > 0 && !walkedClasses.has(c))).toEqual([]);
});

afterAll(() => {
  // The figures of the audit, for the closing note of a change that moves them.
  const count = (kind: string, effect?: string) => walked.filter(w => w.kind === kind && (!effect || w.outcome.effect === effect)).length;
  const lines = ['kind\twalked\tchanged\trefused\tinert'];
  for (const kind of ['prop', 'method', 'setter', 'static']) {
    lines.push(`${kind}\t${count(kind)}\t${count(kind, 'changed')}\t${count(kind, 'refused')}\t${count(kind, 'none')}`);
  }
  const reasons = new Map<string, number>();
  for (const reason of Object.values(INERT)) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  lines.push('', 'inert by reason:', ...[...reasons].map(([reason, n]) => `${n}\t${reason}`));
  const out = path.join(__dirname, '..', '..', 'test-reports');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'call-effects.tsv'), lines.join('\n') + '\n');
});
