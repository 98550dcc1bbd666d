/**
 * Fidelity to the upstream examples: every MPIJob (kubeflow.org/v1) example of the Training Operator
 * is written with MpiAllReduce, and every leaf field of the upstream manifest must appear in the
 * synthesized one with the same value (ours may hold more, such as spec.mainContainer).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES } from '../../scripts/upstream/pins';
import { CleanPodPolicy, MpiAllReduce } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { missingLeaves } from '../harness/fidelity';

const UPSTREAM = path.join(UPSTREAM_EXAMPLES, 'training-operator', 'mpi');

const LAUNCHER_RESOURCES = { cpu: kplus.Cpu.units(1), memory: Size.gibibytes(2) };
const WORKER_RESOURCES = { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4) };

/**
 * Each upstream example written with the L2, as a user would write it from the manifest. Keys are
 * paths below `training-operator/mpi/`.
 */
const EXPRESSED: { [file: string]: (chart: Chart) => void } = {
  'tensorflow-mnist.yaml': chart => {
    new MpiAllReduce(chart, 'job', {
      metadata: { name: 'tensorflow-mnist' },
      image: 'horovod/horovod:0.28.1',
      slotsPerWorker: 1,
      runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
      workers: 2,
      worker: { resources: WORKER_RESOURCES },
      launcher: {
        resources: LAUNCHER_RESOURCES,
        command: ['mpirun'],
        args: [
          '-np', '2', '--allow-run-as-root', '-bind-to', 'none', '-map-by', 'slot', '-x', 'LD_LIBRARY_PATH', '-x', 'PATH',
          '-mca', 'pml', 'ob1', '-mca', 'btl', '^openib', 'python', '/horovod/examples/tensorflow2/tensorflow2_mnist.py',
        ],
      },
    });
  },
  'tensorflow-mnist-elastic.yaml': chart => {
    new MpiAllReduce(chart, 'job', {
      metadata: { name: 'tensorflow-mnist-elastic' },
      image: 'horovod/horovod:0.20.0-tf2.3.0-torch1.6.0-mxnet1.5.0-py3.7-cpu',
      slotsPerWorker: 1,
      // Upstream writes the deprecated top-level spec.cleanPodPolicy; see TRANSLATED.
      runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
      mainContainer: 'mpi-worker',
      workers: 2,
      worker: { resources: WORKER_RESOURCES },
      launcher: {
        containerName: 'mpi-launcher',
        resources: LAUNCHER_RESOURCES,
        command: ['horovodrun'],
        args: [
          '-np', '2', '--min-np', '1', '--max-np', '3', '--host-discovery-script', '/etc/mpi/discover_hosts.sh',
          'python', '/examples/elastic/tensorflow2_mnist_elastic.py',
        ],
      },
    });
  },
};

/**
 * Upstream fields the construct writes elsewhere on purpose, as [upstream path, path we write].
 * MpiAllReduce never writes the deprecated `spec.cleanPodPolicy`: the controller reads
 * `spec.runPolicy.cleanPodPolicy` first, falls back to the deprecated field, and then syncs the two,
 * so the value at the new path means the same. The test moves the upstream value to the new path
 * before comparing, and checks that the deprecated path stays empty.
 */
const TRANSLATED: { [file: string]: Array<[string[], string[]]> } = {
  'tensorflow-mnist-elastic.yaml': [[['spec', 'cleanPodPolicy'], ['spec', 'runPolicy', 'cleanPodPolicy']]],
};

function upstreamFiles(): string[] {
  return fs.readdirSync(UPSTREAM).filter(f => /\.ya?ml$/.test(f)).sort();
}

/** A copy of `doc` with each translated field moved to the path the construct writes it to. */
function translate(doc: any, moves: Array<[string[], string[]]>): any {
  const copy = JSON.parse(JSON.stringify(doc));
  for (const [from, to] of moves) {
    const parent = from.slice(0, -1).reduce((o, k) => o?.[k], copy);
    const value = parent?.[from[from.length - 1]];
    expect(value).toBeDefined();
    delete parent[from[from.length - 1]];
    let target = copy;
    for (const k of to.slice(0, -1)) target = target[k] ??= {};
    target[to[to.length - 1]] = value;
  }
  return copy;
}

test('every upstream MPIJob example has an L2 expression', () => {
  expect(upstreamFiles()).toEqual(Object.keys(EXPRESSED).sort());
  for (const file of Object.keys(TRANSLATED)) expect(upstreamFiles()).toContain(file);
});

test.each(Object.keys(EXPRESSED).sort())('%s is expressible with MpiAllReduce', file => {
  const upstream = yaml.loadAll(fs.readFileSync(path.join(UPSTREAM, file), 'utf8')).filter(d => d);
  expect(upstream).toHaveLength(1);
  const docs = expectDeterministic(app => EXPRESSED[file](new Chart(app, 'upstream')));
  expectValidManifests(docs);
  expect(docs).toHaveLength(1);
  const moves = TRANSLATED[file] ?? [];
  expect(missingLeaves(translate(upstream[0], moves), docs[0])).toEqual([]);
  // Only the moved fields differ: the raw upstream document misses exactly those.
  expect(missingLeaves(upstream[0], docs[0])).toEqual(moves.map(([from]) => `${from.join('.')}: expected ${JSON.stringify(from.reduce((o: any, k) => o[k], upstream[0]))}, got undefined`));
  expect(docs[0].spec.cleanPodPolicy).toBeUndefined();
});
