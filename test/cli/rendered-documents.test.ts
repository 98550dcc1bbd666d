/**
 * The operator rules on what the constructs render: random valid jobs (the property tests'
 * arbitraries) give no finding of the rule sets: the validation engine runs the document rules on
 * the constructs' own output, so a false positive would refuse a valid job.
 */
import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { DistributedJax, DistributedPyTorch, DistributedXGBoost } from '../../src';
import { describe as describeFinding } from '../../src/rules/finding';
import { documentFindings } from '../../src/rules/rule-sets';
import { RUNS, renderTwice } from '../harness/properties';
import { Ids, consistent, decorateJob, jobDataFor, jobProps } from '../properties/job-arbitraries';

const INJECTED = /^(MASTER_ADDR|MASTER_PORT|WORLD_SIZE|RANK|PET_.*|PYTHONUNBUFFERED|WORKER_PORT|WORKER_ADDRS|COORDINATOR_ADDRESS|COORDINATOR_PORT|NUM_PROCESSES|PROCESS_ID)$/;

const config = fc.record({
  job: jobDataFor(INJECTED),
  kind: fc.constantFrom('pytorch', 'pytorch-elastic', 'xgboost', 'jax'),
  workers: fc.integer({ min: 1, max: 40 }),
  maxExtra: fc.integer({ min: 0, max: 40 }),
}).map(c => consistent(c))
  // MultiKueue needs a queue (kueue/multikueue-queue, a construct error by design).
  .filter(c => c.job.runPolicy?.managedBy?.value !== 'kueue.x-k8s.io/multikueue' || (c.job.queue ?? c.job.platform?.queue) !== undefined);

function build(chart: Chart, c: typeof config extends fc.Arbitrary<infer T> ? T : never): void {
  const ids = new Ids();
  switch (c.kind) {
    case 'pytorch': {
      const job = new DistributedPyTorch(chart, 'job', { ...jobProps(chart, ids, c.job, { Master: 1, Worker: c.workers }), workers: c.workers });
      decorateJob(job, c.job, chart, ids);
      break;
    }
    case 'pytorch-elastic': {
      const max = c.workers + c.maxExtra;
      const job = new DistributedPyTorch(chart, 'job', {
        ...jobProps(chart, ids, c.job, { Worker: max }, c.workers), workers: c.workers, elastic: { minWorkers: 1, maxWorkers: max },
      });
      decorateJob(job, c.job, chart, ids);
      break;
    }
    case 'xgboost': {
      const job = new DistributedXGBoost(chart, 'job', { ...jobProps(chart, ids, c.job, { Master: 1, Worker: c.workers }), workers: c.workers });
      decorateJob(job, c.job, chart, ids);
      break;
    }
    default: {
      const job = new DistributedJax(chart, 'job', { ...jobProps(chart, ids, c.job, { Worker: c.workers }), workers: c.workers });
      decorateJob(job, c.job, chart, ids);
    }
  }
}

test(`${RUNS} random valid PyTorch (static and elastic), XGBoost and JAX jobs give no operator finding`, () => {
  fc.assert(fc.property(config, c => {
    const docs = renderTwice(chart => build(chart, c));
    expect(docs.flatMap(d => documentFindings(d).map(f => `${d.kind} ${f.rule} ${describeFinding(f)}`))).toEqual([]);
  }), { numRuns: RUNS });
});
