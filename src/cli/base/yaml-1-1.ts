/**
 * YAML 1.1 scalars for js-yaml, the command's fast parser: what kubectl and cdk8s's `Yaml.load`
 * read (`yes`/`on` are booleans, `0755` is octal, `1:30` is 90). Each test and conversion is the
 * one of the `yaml` package's `yaml-1.1` schema (the command's full parser), in the same order, so
 * both parsers give the same value for every plain scalar; test/cli/base/yaml-parser.test.ts compares
 * them. A merge key (`<<`) is not read here: the full parser reads any document that has one.
 */
import * as jsYaml from 'js-yaml';

/** Thrown for what only the full parser reads; the caller parses the text with it instead. */
export class FullParserNeeded extends Error {}

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const TRUE = /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const FALSE = /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;
const INT_BIN = /^[-+]?0b[0-1_]+$/;
const INT_OCT = /^[-+]?0[0-7_]+$/;
const INT_DEC = /^[-+]?[0-9][0-9_]*$/;
const INT_HEX = /^[-+]?0x[0-9a-fA-F_]+$/;
const INT_TIME = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/;
const FLOAT_TIME = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/;
const TIMESTAMP = new RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})'
  + '(?:(?:t|T|[ \\t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)'
  + '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$');

function integer(text: string, prefix: number, radix: number): number {
  const sign = text[0];
  const digits = text.substring(sign === '-' || sign === '+' ? prefix + 1 : prefix).replace(/_/g, '');
  const n = parseInt(digits, radix);
  return sign === '-' ? -1 * n : n;
}

function sexagesimal(text: string): number {
  const sign = text[0];
  const parts = sign === '-' || sign === '+' ? text.substring(1) : text;
  const n = parts.replace(/_/g, '').split(':').reduce((sum, p) => sum * 60 + Number(p), 0);
  return sign === '-' ? -1 * n : n;
}

function timestamp(text: string): Date {
  const match = TIMESTAMP.exec(text)!;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const millisecond = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
  let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisecond);
  const zone = match[8];
  if (zone && zone !== 'Z') {
    let minutes = sexagesimal(zone);
    if (Math.abs(minutes) < 30) minutes *= 60;
    date -= 60000 * minutes;
  }
  return new Date(date);
}

const scalar = (tag: string, resolve: (text: string) => boolean, construct: (text: string) => unknown) =>
  new jsYaml.Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (t: string | null) => resolve(t ?? ''), construct: (t: string | null) => construct(t ?? '') });

function int(text: string): number {
  if (INT_BIN.test(text)) return integer(text, 2, 2);
  if (INT_OCT.test(text)) return integer(text, 1, 8);
  if (INT_DEC.test(text)) return integer(text, 0, 10);
  if (INT_HEX.test(text)) return integer(text, 2, 16);
  return sexagesimal(text);
}

function float(text: string): number {
  if (FLOAT_NAN.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return parseFloat(text.replace(/_/g, ''));
  return sexagesimal(text);
}

// Most plain scalars of a manifest are words: the first character rules out every other type
// before any pattern is tried (the parser asks each type in turn, for every plain scalar).
const startsWith = (chars: string) => (t: string) => t.length > 0 && chars.includes(t[0]);
const NULL_START = { test: startsWith('~nN') };
const BOOL_START = { test: startsWith('yYnNtTfFoO') };
const NUMBER_START = { test: startsWith('-+0123456789.eE') };

/** The `yaml` package's YAML 1.1 schema for plain scalars, as a js-yaml schema. */
export const YAML_1_1 = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', t => t === '' || (NULL_START.test(t) && NULL.test(t)), () => null),
    scalar('bool', t => BOOL_START.test(t) && (TRUE.test(t) || FALSE.test(t)), t => TRUE.test(t)),
    scalar('int', t => NUMBER_START.test(t) && (INT_BIN.test(t) || INT_OCT.test(t) || INT_DEC.test(t) || INT_HEX.test(t) || INT_TIME.test(t)), int),
    scalar('float', t => NUMBER_START.test(t) && (FLOAT_NAN.test(t) || FLOAT_EXP.test(t) || FLOAT.test(t) || FLOAT_TIME.test(t)), float),
    // The `yaml` package merges `<<` keys its own way (which keys win, where they go): left to it.
    scalar('merge', t => t === '<<', () => { throw new FullParserNeeded('a merge key'); }),
    scalar('timestamp', t => NUMBER_START.test(t) && TIMESTAMP.test(t), timestamp),
  ],
});
