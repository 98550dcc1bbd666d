import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { DistributedJax } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`DistributedJax: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('DistributedJax', 'DistributedJaxProps', BASE, (chart, props) => new DistributedJax(chart, 'job', props));
  expect(fields).toBe(92);
});
