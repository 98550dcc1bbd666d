/**
 * Regression tests for the bugs the property tests (test/properties/) found: each one a random
 * input that ended in a manifest, a TypeError or an error from inside cdk8s instead of the
 * construct's own message.
 */
import { Chart, Duration, Testing } from 'cdk8s';
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

describe('durations that are not whole seconds', () => {
  // Found by every training-job property test: a Duration such as Duration.millis(1500) ended in
  // cdk8s's "'1500 millis' cannot be converted into a whole number of seconds", thrown from inside
  // cdk8s (activeDeadline at construction, ttlAfterFinished and scheduleTimeout only at synth).
  test('runPolicy.activeDeadline', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, runPolicy: { activeDeadline: Duration.millis(1500) } }))
      .toThrow('test/job: runPolicy.activeDeadline is "1.5s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('runPolicy.ttlAfterFinished', () => {
    expect(() => new DistributedJax(chart(), 'job', { image: IMAGE, runPolicy: { ttlAfterFinished: Duration.millis(12) } }))
      .toThrow('test/job: runPolicy.ttlAfterFinished is "0.012s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('gangScheduling.scheduleTimeout', () => {
    expect(() => new DistributedXGBoost(chart(), 'job', { image: IMAGE, gangScheduling: { scheduler: GangScheduler.VOLCANO, scheduleTimeout: Duration.millis(90_500) } }))
      .toThrow('test/job: gangScheduling.scheduleTimeout is "90.5s"; expected a whole number of seconds, which the manifest counts in');
  });
  test('whole seconds, however given, still pass', () => {
    const c = chart();
    new DistributedJax(c, 'job', { image: IMAGE, runPolicy: { activeDeadline: Duration.millis(2000), ttlAfterFinished: Duration.minutes(1) } });
    expect(Testing.synth(c)[0].spec.runPolicy).toEqual({ activeDeadlineSeconds: 2, ttlSecondsAfterFinished: 60 });
  });
});
