/**
 * The library's strict schema check (src/rules/schema): findings in the library's one message
 * shape, with the document path of the field, for the pinned kinds only, and schemas loaded on the
 * first check of their kind rather than when the library is loaded.
 */
import { SHARED_SUBTREES_FILE } from '../../../scripts/l1/schema-modules';
import { describe as message, Finding } from '../../../src/rules/finding';
import { kindSchema, pinnedKinds, schemaFindings } from '../../../src/rules/schema';
import { SchemaNode } from '../../../src/rules/schema/schema-node';
import { inflate } from '../../../src/rules/schema/shared-subtrees';
import { toFinding, violations } from '../../../src/rules/schema/validator';
import { PINNED_CRD_FIELDS } from '../../harness/messages';

/** The module of the subtrees the compact schemas share, as the test requires and mocks it. */
const SHARED_SUBTREES_MODULE = SHARED_SUBTREES_FILE.replace(/\.ts$/, '');

const WORKER = 'spec.pytorchReplicaSpecs.Worker';
/** The resource-quantity pattern of the pinned CRDs. */
const QUANTITY = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

function pytorchJob(patch: (doc: any) => void = () => {}): any {
  const doc: any = {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'mnist' },
    spec: {
      pytorchReplicaSpecs: {
        Worker: {
          replicas: 2,
          restartPolicy: 'OnFailure',
          template: { spec: { containers: [{ name: 'pytorch', image: 'pytorch/pytorch:2.5.0' }] } },
        },
      },
    },
  };
  patch(doc);
  return doc;
}

const container = (doc: any) => doc.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0];
const messages = (findings: Finding[] | undefined) => findings?.map(message);

test('a valid manifest has no findings', () => {
  expect(schemaFindings(pytorchJob())).toEqual([]);
});

test('an unknown field is a finding with its document path, value and rule', () => {
  const findings = schemaFindings(pytorchJob(d => {
    container(d).foo = 1;
  }));
  expect(findings).toEqual([{
    field: `${WORKER}.template.spec.containers[0].foo`,
    value: 1,
    allowed: PINNED_CRD_FIELDS,
    rule: 'library/schema',
  }]);
  expect(messages(findings)).toEqual([`${WORKER}.template.spec.containers[0].foo is 1; ${PINNED_CRD_FIELDS}`]);
});

test('a misspelled field suggests the declared one', () => {
  expect(messages(schemaFindings(pytorchJob(d => {
    container(d).imagee = 'x';
    d.spec.runpolicy = {};
  })))).toEqual([
    `${WORKER}.template.spec.containers[0].imagee is "x"; ${PINNED_CRD_FIELDS} (did you mean "image"?)`,
    `spec.runpolicy is {}; ${PINNED_CRD_FIELDS} (did you mean "runPolicy"?)`,
  ]);
});

test('wrong types, malformed quantities and missing required fields', () => {
  expect(messages(schemaFindings(pytorchJob(d => {
    d.spec.pytorchReplicaSpecs.Worker.replicas = 'two';
    delete container(d).name;
    container(d).resources = { limits: { cpu: true, memory: 'lots' } };
    d.metadata.labels = { team: 7 };
  })))).toEqual([
    'metadata.labels.team is 7; expected a value of type string',
    `${WORKER}.replicas is "two"; expected a value of type integer`,
    `${WORKER}.template.spec.containers[0].name is not set; expected a value (the CRD requires this field)`,
    `${WORKER}.template.spec.containers[0].resources.limits.cpu is true; expected an integer or a string`,
    `${WORKER}.template.spec.containers[0].resources.limits.memory is "lots"; expected a string matching ${QUANTITY}`,
  ]);
});

test('the other constraints of a schema read the same way', () => {
  const schema: SchemaNode = {
    type: 'object',
    properties: {
      policy: { type: 'string', enum: ['Always', 'Never'] },
      name: { type: 'string', minLength: 2, maxLength: 4 },
      count: { type: 'integer', minimum: 1, maximum: 8, exclusiveMaximum: true },
      tags: { type: 'array', minItems: 1, items: { type: 'string' } },
    },
  };
  expect(violations(schema, { policy: 'Sometimes', name: 'abcde', count: 8, tags: [] }, 'spec').map(toFinding).map(message)).toEqual([
    'spec.policy is "Sometimes"; expected one of "Always", "Never"',
    'spec.name is "abcde"; expected at most 4 characters',
    'spec.count is 8; expected less than 8',
    'spec.tags is []; expected at least 1 item',
  ]);
  expect(violations(schema, { name: 'a', count: 0 }).map(toFinding).map(message)).toEqual([
    'name is "a"; expected at least 2 characters',
    'count is 0; expected at least 1',
  ]);
  expect(violations(schema, 'x').map(toFinding).map(message)).toEqual(['(root) is "x"; expected a value of type object']);
});

test('a duplicate entry of a list-map', () => {
  expect(messages(schemaFindings(pytorchJob(d => {
    d.spec.pytorchReplicaSpecs.Worker.template.spec.containers.push({ name: 'pytorch', image: 'other' });
  })))).toEqual([
    `${WORKER}.template.spec.containers[1] is {"name":"pytorch","image":"other"}; expected entries with distinct name "pytorch" (the same as the entry at index 0)`,
  ]);
});

test('no findings, but undefined, for what has no pinned schema', () => {
  expect(schemaFindings({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })).toBeUndefined();
  expect(schemaFindings({ apiVersion: 'kubeflow.org/v2beta1', kind: 'MPIJob', metadata: { name: 'x' } })).toBeUndefined();
  expect(schemaFindings({ kind: 'PyTorchJob' })).toBeUndefined();
  expect(schemaFindings('PyTorchJob')).toBeUndefined();
  expect(schemaFindings(null)).toBeUndefined();
});

test('every pinned kind has its schema', () => {
  expect(pinnedKinds()).toEqual([
    'kubeflow.org/v1 JAXJob', 'kubeflow.org/v1 MPIJob', 'kubeflow.org/v1 MXJob', 'kubeflow.org/v1 PaddleJob',
    'kubeflow.org/v1 PyTorchJob', 'kubeflow.org/v1 TFJob', 'kubeflow.org/v1 XGBoostJob',
    'kubeflow.org/v1beta1 Workspace', 'kubeflow.org/v1beta1 WorkspaceKind',
    // Kueue: v1beta2, which the library writes, and v1beta1, which lint still reads.
    'kueue.x-k8s.io/v1beta1 ClusterQueue', 'kueue.x-k8s.io/v1beta1 Cohort', 'kueue.x-k8s.io/v1beta1 LocalQueue', 'kueue.x-k8s.io/v1beta1 ResourceFlavor',
    'kueue.x-k8s.io/v1beta1 Topology', 'kueue.x-k8s.io/v1beta1 WorkloadPriorityClass',
    'kueue.x-k8s.io/v1beta2 ClusterQueue', 'kueue.x-k8s.io/v1beta2 Cohort', 'kueue.x-k8s.io/v1beta2 LocalQueue', 'kueue.x-k8s.io/v1beta2 ResourceFlavor',
    'kueue.x-k8s.io/v1beta2 Topology', 'kueue.x-k8s.io/v1beta2 WorkloadPriorityClass',
    'trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime', 'trainer.kubeflow.org/v1alpha1 TrainJob',
    'trainer.kubeflow.org/v1alpha1 TrainingRuntime',
  ]);
  for (const key of pinnedKinds()) {
    const [apiVersion, kind] = key.split(' ');
    expect(`${kindSchema(apiVersion, kind)?.group}/${kindSchema(apiVersion, kind)?.version} ${kindSchema(apiVersion, kind)?.kind}`).toBe(key);
  }
});

test('loading the library loads no schema; checking a kind loads that kind\'s only', () => {
  const loaded: string[] = [];
  jest.isolateModules(() => {
    for (const key of [...pinnedKinds(), SHARED_SUBTREES_MODULE]) {
      const file = key.replace('/', '_').replace(' ', '_');
      const actual = jest.requireActual(`../../../src/rules/schema/crds/${file}`);
      jest.doMock(`../../../src/rules/schema/crds/${file}`, () => {
        loaded.push(file);
        return actual;
      });
    }
    // Plain requires: jest.isolateModules gives them a fresh module registry.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../../../src');
    expect(loaded).toEqual([]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const schema = require('../../../src/rules/schema');
    expect(schema.schemaFindings(pytorchJob())).toEqual([]);
    expect(schema.schemaFindings(pytorchJob())).toEqual([]);
    expect(loaded).toEqual([SHARED_SUBTREES_MODULE, 'kubeflow.org_v1_PyTorchJob']);
  });
});

describe('shared subtrees', () => {
  test('kinds that embed the same subtree use one object for it', () => {
    const template = (k: string, map: string) => kindSchema('kubeflow.org/v1', k)!.schema.properties!.spec.properties![map]
      .additionalProperties as SchemaNode;
    expect(template('TFJob', 'tfReplicaSpecs').properties!.template).toBe(template('JAXJob', 'jaxReplicaSpecs').properties!.template);
  });

  test('references are replaced where schemas hold schemas, and nowhere else', () => {
    const definitions = { a: { type: 'string' }, b: { type: 'object', properties: { x: { $ref: 'a' } } } };
    const node = {
      properties: { p: { $ref: 'b' }, q: { type: 'object', default: { $ref: 'a' } } },
      items: { $ref: 'a' },
      additionalProperties: { $ref: 'a' },
      anyOf: [{ $ref: 'a' }, { type: 'integer' }],
    };
    expect(inflate(node, definitions)).toEqual({
      properties: { p: { type: 'object', properties: { x: { type: 'string' } } }, q: { type: 'object', default: { $ref: 'a' } } },
      items: { type: 'string' },
      additionalProperties: { type: 'string' },
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
    expect(() => inflate({ items: { $ref: 'gone' } }, definitions)).toThrow('compact schema refers to the unknown shared subtree gone');
  });
});
