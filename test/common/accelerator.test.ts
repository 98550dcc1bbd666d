import { Accelerator } from '../../src';

test('vendors map to their extended resource names', () => {
  expect([Accelerator.nvidia(1), Accelerator.amd(2), Accelerator.intel(3), Accelerator.custom('habana.ai/gaudi', 8)]
    .map(a => [a.resourceName, a.count])).toEqual([['nvidia.com/gpu', 1], ['amd.com/gpu', 2], ['gpu.intel.com/i915', 3], ['habana.ai/gaudi', 8]]);
});

test('only whole positive counts of qualified names are usable', () => {
  expect(Accelerator.nvidia(2)._finding('resources.accelerator')).toBeUndefined();
  expect(Accelerator.nvidia(0)._finding('resources.accelerator')?.allowed).toBe('expected a whole number of devices greater than 0 (got 0)');
  expect(Accelerator.nvidia(0.5)._finding('resources.accelerator')?.allowed).toBe('expected a whole number of devices greater than 0 (got 0.5)');
  expect(Accelerator.nvidia(-1)._finding('resources.accelerator')?.allowed).toBe('expected a whole number of devices greater than 0 (got -1)');
  expect(Accelerator.custom('gpu', 1)._finding('resources.accelerator')?.allowed).toBe('expected a qualified extended resource name such as "vendor.com/device" (got "gpu")');
  expect(Accelerator.custom('Vendor.com/gpu', 1)._finding('resources.accelerator')?.allowed).toBe('expected a qualified extended resource name such as "vendor.com/device" (got "Vendor.com/gpu")');
});
