import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { DistributedPaddle } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`DistributedPaddle: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('DistributedPaddle', 'DistributedPaddleProps', BASE, (chart, props) => new DistributedPaddle(chart, 'job', props));
  expect(fields).toBe(131);
});
