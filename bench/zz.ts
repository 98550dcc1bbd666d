import * as jsYaml from 'js-yaml';
import { jobDocuments } from './lint';
import { parseYamlStream } from '../src/cli/yaml-parser';
import { readDocuments } from '../src/cli/input';
import { lint } from '../src/cli/lint';
const text = jobDocuments(1000);
const t = (f: () => void) => { const s = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - s) / 1e6; };
const lintIt = () => lint(readDocuments(['-'], () => text));
for (let i = 0; i < 3; i++) { parseYamlStream(text); jsYaml.loadAll(text); lintIt(); }
const a: number[] = [], b: number[] = [], c: number[] = [];
for (let i = 0; i < 11; i++) { a.push(t(() => parseYamlStream(text))); b.push(t(() => jsYaml.loadAll(text))); c.push(t(lintIt)); }
const med = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1];
console.log('parse', med(a), 'loadAll', med(b), 'lint', med(c), 'ratio', med(c) / med(b), 'parse ratio', med(a) / med(b));
