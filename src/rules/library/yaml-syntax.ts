import { Rule } from '../rule';

/** A document `lint` cannot read: the command's YAML reader, always on (nothing else can be checked in it). */
export const YAML_SYNTAX_RULE = new Rule('library', 'library/yaml-syntax', 'yaml',
  'YAML 1.1, as kubectl reads it (duplicate keys refused)',
  'a document is YAML that kubectl would read (no duplicate keys, no syntax errors)');
