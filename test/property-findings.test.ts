/**
 * Regression tests for the bugs the property tests (test/properties/) found: each one a random
 * input that ended in a manifest, a TypeError or an error from inside cdk8s instead of the
 * construct's own message.
 */
import { Chart, Testing } from 'cdk8s';
import { DistributedJax, DistributedXGBoost, GangScheduler } from '../src';

const IMAGE = 'registry.example.com/train:1.0';
const chart = () => new Chart(Testing.app(), 'test');

describe('gang scheduling is checked without a run policy', () => {
  // Found by the XGBoost and JAX property tests: minAvailable was checked only inside the run-policy
  // check, which returned early when no runPolicy was given, so 0, -1 or 1.5 reached the manifest.
  test.each([0, -1, 1.5])('minAvailable %p', n => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: n } }))
      .toThrow(`test/job: gangScheduling.minAvailable is ${n}; expected a whole number of 1 or more`);
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: n } }))
      .toThrow(`test/job: gangScheduling.minAvailable is ${n}; expected a whole number of 1 or more`);
  });
});
