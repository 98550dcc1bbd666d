import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { DistributedPyTorch } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`DistributedPyTorch: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('DistributedPyTorch', 'DistributedPyTorchProps', BASE, (chart, props) => new DistributedPyTorch(chart, 'job', props));
  expect(fields).toBe(135);
});
