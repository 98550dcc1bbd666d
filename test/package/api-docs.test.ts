import * as path from 'path';
import { readAssembly, undocumentedMembers } from '../harness/api-docs';

// That API.md and docs/api/*.md are what scripts/docgen.ts writes is checked in
// test/docs/api-reference.test.ts.

/**
 * Every public type, property, method and parameter of the library's own API has a doc summary,
 * and every optional struct property says its `@default`: jsii-docgen and the bindings of every
 * language take their reference text from the assembly. The test command compiles with jsii
 * first, so `.jsii` is current.
 */
test('every public member of the root module is documented', () => {
  const assembly = readAssembly(path.join(__dirname, '..', '..', '.jsii'));
  // Guards against a vacuous pass if the assembly's layout ever changes.
  expect(Object.keys(assembly.types ?? {}).filter(fqn => fqn.split('.').length === 2).length).toBeGreaterThan(20);
  // The diff jest prints on failure lists the offenders.
  expect(undocumentedMembers(assembly)).toEqual([]);
});

test('the documentation check reports what it should', () => {
  const missing = undocumentedMembers({
    name: 'lib',
    types: {
      'lib.Documented': {
        kind: 'class',
        docs: { summary: 'A class.' },
        properties: [{ name: 'value', docs: { summary: 'Its value.' } }],
        methods: [{ name: 'go', docs: { summary: 'Goes.' }, parameters: [{ name: 'far', docs: { summary: 'How far.' } }] }],
        initializer: { parameters: [{ name: 'scope', docs: { summary: 'The scope.' } }] },
      },
      'lib.Bare': {
        kind: 'class',
        properties: [{ name: 'value' }],
        methods: [{ name: 'go', parameters: [{ name: 'far' }] }],
        initializer: { parameters: [{ name: 'scope' }] },
      },
      'lib.Props': {
        kind: 'interface',
        docs: { summary: 'Options.' },
        properties: [
          { name: 'given', optional: true, docs: { summary: 'Has a default.', default: '1' } },
          { name: 'open', optional: true, docs: { summary: 'Has none.' } },
          { name: 'required', docs: { summary: 'Needs none.' } },
        ],
      },
      'lib.sub.Generated': { kind: 'class' },
    },
  });
  expect(missing).toEqual([
    'lib.Bare',
    'lib.Bare#value',
    'lib.Bare.go()',
    'lib.Bare.go(far)',
    'lib.Bare.new(scope)',
    'NO-DEFAULT lib.Props#open',
  ]);
});
