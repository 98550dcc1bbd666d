import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { MpiAllReduce } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`MpiAllReduce: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('MpiAllReduce', 'MpiAllReduceProps', BASE, (chart, props) => new MpiAllReduce(chart, 'job', props));
  expect(fields).toBe(130);
});
