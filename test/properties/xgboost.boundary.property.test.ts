import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { DistributedXGBoost } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`DistributedXGBoost: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('DistributedXGBoost', 'DistributedXGBoostProps', BASE, (chart, props) => new DistributedXGBoost(chart, 'job', props));
  expect(fields).toBe(124);
});
