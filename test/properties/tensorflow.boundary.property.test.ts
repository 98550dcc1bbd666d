import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { ParameterServerTF } from '../../src';

const BASE = { metadata: { name: 'train' }, image: 'registry.example.com/train:1.0' };

test(`ParameterServerTF: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('ParameterServerTF', 'ParameterServerTFProps', BASE, (chart, props) => new ParameterServerTF(chart, 'job', props));
  expect(fields).toBe(223);
});
