/**
 * The props the boundary checked are kept on the construct itself (src/boundary/checked-props.ts),
 * not in a table of the module: a non-enumerable symbol property (no spread or JSON carries it), gone with it,
 * and the ones the job renders from (a kind's defaults applied after the check).
 */
import { Chart, Testing } from 'cdk8s';
import { CleanPodPolicy, DistributedPyTorch, LocalQueue, MpiAllReduce, ClusterQueue } from '../../src';
import { checkedPropsOf } from '../../src/boundary/checked-props';

const IMAGE = 'registry.example.com/train:1.0';

test('a construct keeps the props it was created with under a non-enumerable symbol, which a spread does not carry', () => {
  const chart = new Chart(Testing.app(), 'test');
  const props = { image: IMAGE, workers: 2 };
  const job = new DistributedPyTorch(chart, 'job', props);
  expect(checkedPropsOf(job)).toBe(props);
  const symbols = Object.getOwnPropertySymbols(job).filter(s => (job as any)[s] === props);
  expect(symbols).toHaveLength(1);
  expect(Object.getOwnPropertyDescriptor(job, symbols[0])).toEqual({ value: props, enumerable: false, writable: false, configurable: true });
  // Not enumerable: a spread or Object.assign of the construct does not carry it, and JSON never sees a symbol.
  expect(Object.getOwnPropertySymbols({ ...job })).not.toContain(symbols[0]);
  expect(checkedPropsOf(Object.assign({}, job))).toBeUndefined();
});

test('every top-level construct keeps its props, whatever its family', () => {
  const chart = new Chart(Testing.app(), 'test');
  const cqProps = { resourceGroups: [] };
  const cq = new ClusterQueue(chart, 'cq', cqProps);
  const lqProps = { clusterQueue: cq };
  expect(checkedPropsOf(cq)).toBe(cqProps);
  expect(checkedPropsOf(new LocalQueue(chart, 'lq', lqProps))).toBe(lqProps);
  expect(checkedPropsOf(chart)).toBeUndefined();
});

test('an MPIJob keeps the props it renders from: the clean-pod default applied after the check', () => {
  const chart = new Chart(Testing.app(), 'test');
  const props = { image: IMAGE, workers: 2 };
  const kept = checkedPropsOf(new MpiAllReduce(chart, 'mpi', props)) as any;
  expect(kept).not.toBe(props);
  expect(kept).toEqual({ ...props, runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING } });
  const given = { image: IMAGE, workers: 2, runPolicy: { cleanPodPolicy: CleanPodPolicy.ALL } };
  expect(checkedPropsOf(new MpiAllReduce(chart, 'mpi2', given))).toBe(given);
});

test('the props of a refused construct are checked as the caller gave them, before the clean-pod default', () => {
  const chart = new Chart(Testing.app(), 'test');
  expect(() => new MpiAllReduce(chart, 'mpi', { image: IMAGE, runPolicy: 'Running' as any }))
    .toThrow('test/mpi: runPolicy is "Running"; expected a RunPolicy (an object of its fields)');
});
