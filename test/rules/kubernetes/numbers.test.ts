import { DOCUMENT_KINDS, integerFields, kubernetesFindings } from '../../../src/rules/kubernetes';
import { kindSchema, pinnedKinds } from '../../../src/rules/schema';
import { CONTAINER, WORKER, exampleDocument, pytorchJob, workerContainer as c, workerSpec as s } from '../../harness/example-documents';
import { PORT_NUMBER } from '../../harness/messages';
import { f, runCases } from '../cases';

/**
 * The integer table against the CRD schemas the project validates with (src/rules/schema): every
 * integer the schema says is `format: int32` (or int64) is in the table with that format, and the
 * table has nothing the schema does not, except pod fields newer than an older pinned CRD (MXJob's,
 * the Notebooks v2 volumes) that 1.34 has.
 */
const NEWER_FIELDS = ['.restartPolicyRules[].exitCodes.values[]', '.podCertificate.maxExpirationSeconds'];

function schemaIntegers(schema: any, format: string): string[] {
  const found: string[] = [];
  const walk = (node: any, at: string) => {
    if (node === null || typeof node !== 'object') return;
    if (node.type === 'integer' && node.format === format) found.push(at);
    for (const [key, value] of Object.entries(node.properties ?? {})) walk(value, at === '' ? key : `${at}.${key}`);
    if (node.items !== undefined) walk(node.items, `${at}[]`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}.*`);
  };
  walk(schema, '');
  return found.sort();
}

/** Every pinned kind, as `apiVersion kind`. */
const schemaFiles = pinnedKinds();

describe('the integer table covers the CRD schemas', () => {
  test('every kubeflow.org/v1 job, Notebooks v2, Trainer v2 and Kueue schema has a row in the kind table', () => {
    const rows = new Set(DOCUMENT_KINDS.map(k => `${k.apiVersion} ${k.kind}`));
    expect(schemaFiles.filter(key => !rows.has(key))).toEqual([]);
    expect(schemaFiles.filter(key => key.startsWith('kubeflow.org/v1 ')).length).toBe(7);
  });

  test.each(schemaFiles)('%s: int32 and int64 fields', key => {
    const [apiVersion, kind] = key.split(' ');
    const schema = kindSchema(apiVersion, kind)!;
    const row = DOCUMENT_KINDS.find(k => k.apiVersion === apiVersion && k.kind === kind)!;
    const fields = integerFields(row);
    for (const format of ['int32', 'int64']) {
      const table = fields.filter(x => x.format === format).map(x => x.path).sort();
      const expected = schemaIntegers(schema.schema, format);
      const extra = table.filter(p => !expected.includes(p) && !NEWER_FIELDS.some(n => p.endsWith(n)));
      expect({ format, missing: expected.filter(p => !table.includes(p)), extra }).toEqual({ format, missing: [], extra: [] });
    }
    if (key.startsWith('kubeflow.org/v1 ')) expect(fields.filter(x => x.format === 'int32').length).toBeGreaterThan(80);
  });
});

const INT32 = 'expected a whole number from -2147483648 to 2147483647 (int32)';

describe('integer values', () => {
  const over = 2147483648;
  runCases(pytorchJob, [
    ['backoffLimit above int32', d => { d.spec.runPolicy = { backoffLimit: over }; }, [f('spec.runPolicy.backoffLimit', over, INT32, 'kubernetes/int32')]],
    ['ttlSecondsAfterFinished above int32', d => { d.spec.runPolicy = { ttlSecondsAfterFinished: 1e12 }; }, [f('spec.runPolicy.ttlSecondsAfterFinished', 1e12, INT32, 'kubernetes/int32')]],
    ['scheduleTimeoutSeconds above int32', d => { d.spec.runPolicy = { schedulingPolicy: { scheduleTimeoutSeconds: over } }; },
      [f('spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds', over, INT32, 'kubernetes/int32')]],
    ['minAvailable a fraction', d => { d.spec.runPolicy = { schedulingPolicy: { minAvailable: 1.5 } }; },
      [f('spec.runPolicy.schedulingPolicy.minAvailable', 1.5, INT32, 'kubernetes/int32')]],
    ['activeDeadlineSeconds of the job is int64', d => { d.spec.runPolicy = { activeDeadlineSeconds: over }; }, []],
    ['activeDeadlineSeconds of the job above int64', d => { d.spec.runPolicy = { activeDeadlineSeconds: 2 ** 63 }; },
      [f('spec.runPolicy.activeDeadlineSeconds', 2 ** 63, 'expected a whole number from -9223372036854775808 to 9223372036854775807 (int64)', 'kubernetes/int64')]],
    ['replicas above int32', d => { d.spec.pytorchReplicaSpecs.Worker.replicas = over; }, [f('spec.pytorchReplicaSpecs.Worker.replicas', over, INT32, 'kubernetes/int32')]],
    ['elastic maxRestarts below int32', d => { d.spec.elasticPolicy = { maxRestarts: -over - 1 }; }, [f('spec.elasticPolicy.maxRestarts', -over - 1, INT32, 'kubernetes/int32')]],
    ['a pod activeDeadlineSeconds of 0', d => { s(d).activeDeadlineSeconds = 0; },
      [f(`${WORKER}.activeDeadlineSeconds`, 0, 'expected a whole number from 1 to 2147483647', 'kubernetes/int-range')]],
    ['a pod activeDeadlineSeconds above int32', d => { s(d).activeDeadlineSeconds = over; },
      [f(`${WORKER}.activeDeadlineSeconds`, over, 'expected a whole number from 1 to 2147483647', 'kubernetes/int-range')]],
    ['a container port above int32 (one finding, the type)', d => { c(d).ports[0].containerPort = 1e10; },
      [f(`${CONTAINER}.ports[0].containerPort`, 1e10, INT32, 'kubernetes/int32')]],
    ['a negative probe period', d => { c(d).livenessProbe = { exec: { command: ['true'] }, periodSeconds: -1 }; },
      [f(`${CONTAINER}.livenessProbe.periodSeconds`, -1, 'expected a whole number from 0 to 2147483647', 'kubernetes/int-range')]],
    ['a gRPC probe port of 0', d => { c(d).readinessProbe = { grpc: { port: 0 } }; },
      [f(`${CONTAINER}.readinessProbe.grpc.port`, 0, PORT_NUMBER, 'kubernetes/int-range')]],
    ['a volume mode above 0777', d => { s(d).volumes.push({ name: 'cfg', configMap: { name: 'c', defaultMode: 0o1000 } }); },
      [f(`${WORKER}.volumes[cfg].configMap.defaultMode`, 512, 'expected a whole number from 0 to 511', 'kubernetes/int-range')]],
    ['an affinity weight of 0', d => { s(d).affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } }] } }; },
      [f(`${WORKER}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`, 0, 'expected a whole number from 1 to 100', 'kubernetes/int-range')]],
    ['a topology spread maxSkew of 0', d => { s(d).topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }]; },
      [f(`${WORKER}.topologySpreadConstraints[0].maxSkew`, 0, 'expected a whole number from 1 to 2147483647', 'kubernetes/int-range')]],
    ['a token lifetime under ten minutes', d => { s(d).volumes.push({ name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } }); },
      [f(`${WORKER}.volumes[tok].projected.sources[0].serviceAccountToken.expirationSeconds`, 60, 'expected a whole number from 600 to 9223372036854775807', 'kubernetes/int-range')]],
    ['a priority above int32', d => { s(d).priority = over; }, [f(`${WORKER}.priority`, over, INT32, 'kubernetes/int32')]],
  ]);
});

describe('integer values of other kinds', () => {
  test('MPIJob slotsPerWorker above int32', () => {
    const doc = exampleDocument('mpi-reference.k8s.yaml', 'MPIJob');
    doc.spec.slotsPerWorker = 2147483648;
    expect(kubernetesFindings(doc)).toEqual([f('spec.slotsPerWorker', 2147483648, INT32, 'kubernetes/int32')]);
  });
});

describe('every int32 field of the table is checked where it is', () => {
  /** A document with only the value at the path (lists of one item, maps with key "Worker"). */
  function materialize(doc: any, pathText: string, value: unknown): string {
    let node = doc;
    const segments = pathText.split('.');
    const shown: string[] = [];
    segments.forEach((raw, i) => {
      const last = i === segments.length - 1;
      const list = raw.endsWith('[]');
      const key = raw === '*' ? 'Worker' : list ? raw.slice(0, -2) : raw;
      if (list) {
        shown.push(`${key}[0]`);
        if (last) { node[key] = [value]; return; }
        node[key] = node[key] ?? [{}];
        node = node[key][0];
      } else {
        shown.push(key);
        if (last) { node[key] = value; return; }
        node[key] = node[key] ?? {};
        node = node[key];
      }
    });
    return shown.join('.');
  }

  for (const kind of DOCUMENT_KINDS.filter(k => k.apiVersion === 'kubeflow.org/v1' || k.kind.startsWith('Workspace'))) {
    const paths = integerFields(kind).filter(x => x.format === 'int32').map(x => x.path);
    test(`${kind.kind}: ${paths.length} int32 fields each report a value above int32`, () => {
      const missed: string[] = [];
      for (const p of paths) {
        const doc: any = { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name: 'x' } };
        const shown = materialize(doc, p, 2147483648);
        const found = kubernetesFindings(doc).filter(x => x.rule === 'kubernetes/int32');
        if (found.length !== 1 || found[0].field !== shown) missed.push(`${p} -> ${JSON.stringify(found)}`);
      }
      expect(missed).toEqual([]);
    });
  }
});
