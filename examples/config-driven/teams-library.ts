/**
 * A template library that builds training jobs from a configuration file (teams.yaml): the
 * config holds strings, and the library's `parse` functions turn them into the typed values the
 * constructs take, refusing a misspelt value with the config key that holds it.
 * docs/config-driven.md walks through it; test/docs/config-driven.test.ts runs it.
 */
import { App, Chart } from 'cdk8s';
import * as yaml from 'js-yaml';
import * as kf from '../../src';

/** One job of a team, as the config writes it: every value a string or a number. */
interface JobConfig {
  readonly name: string;
  readonly framework: 'pytorch' | 'tensorflow';
  readonly image?: string;
  readonly workers?: number;
  readonly parameterServers?: number;
  readonly accelerator?: string;
  readonly gpus?: number;
  readonly memory?: string;
  readonly sharedMemory?: string;
  readonly restartPolicy?: string;
  readonly cleanPodPolicy?: string;
  readonly ttlAfterFinished?: string;
  readonly activeDeadline?: string;
  readonly nprocPerNode?: string;
  readonly successPolicy?: string;
  readonly elastic?: { readonly minWorkers: number; readonly maxWorkers: number; readonly rendezvousBackend?: string };
}

interface TeamsConfig {
  readonly defaults?: Partial<JobConfig>;
  readonly teams: { readonly [team: string]: { readonly namespace: string; readonly queue?: string; readonly jobs: JobConfig[] } };
}

/** Adds one chart per team, with its jobs, to `app`. */
export function teamsFromConfig(app: App, configYaml: string): void {
  const config = yaml.load(configYaml) as TeamsConfig;
  for (const [team, spec] of Object.entries(config.teams)) {
    const chart = new Chart(app, team, { namespace: spec.namespace });
    spec.jobs.forEach((entry, i) => {
      const job = { ...config.defaults, ...entry };
      // Every error names the config key: `teams.vision.jobs[0].memory`.
      const key = (field: string) => `teams.${team}.jobs[${i}].${field}`;
      const common = {
        metadata: { name: job.name },
        image: job.image,
        workers: job.workers,
        queue: spec.queue,
        restartPolicy: job.restartPolicy === undefined ? undefined : kf.RestartPolicy.parse(job.restartPolicy, key('restartPolicy')),
        resources: resources(job, key),
        sharedMemory: job.sharedMemory === undefined ? undefined : kf.Parse.size(job.sharedMemory, key('sharedMemory')),
        runPolicy: runPolicy(job, key),
      };
      if (job.framework === 'pytorch') {
        new kf.DistributedPyTorch(chart, job.name, {
          ...common,
          nprocPerNode: job.nprocPerNode === undefined ? undefined : kf.NprocPerNode.parse(job.nprocPerNode, key('nprocPerNode')),
          elastic: job.elastic && {
            minWorkers: job.elastic.minWorkers,
            maxWorkers: job.elastic.maxWorkers,
            rendezvousBackend: job.elastic.rendezvousBackend === undefined ? undefined
              : kf.RendezvousBackend.parse(job.elastic.rendezvousBackend, key('elastic.rendezvousBackend')),
          },
        });
      } else {
        new kf.ParameterServerTF(chart, job.name, {
          ...common,
          parameterServers: job.parameterServers,
          successPolicy: job.successPolicy === undefined ? undefined : kf.SuccessPolicy.parse(job.successPolicy, key('successPolicy')),
        });
      }
    });
  }
}

function resources(job: JobConfig, key: (field: string) => string): kf.Resources {
  return {
    memory: job.memory === undefined ? undefined : kf.Parse.size(job.memory, key('memory')),
    accelerator: job.accelerator === undefined ? undefined : kf.Accelerator.parse(job.accelerator, job.gpus ?? 1, key('accelerator')),
  };
}

function runPolicy(job: JobConfig, key: (field: string) => string): kf.RunPolicy {
  return {
    cleanPodPolicy: job.cleanPodPolicy === undefined ? undefined : kf.CleanPodPolicy.parse(job.cleanPodPolicy, key('cleanPodPolicy')),
    ttlAfterFinished: job.ttlAfterFinished === undefined ? undefined : kf.Parse.duration(job.ttlAfterFinished, key('ttlAfterFinished')),
    activeDeadline: job.activeDeadline === undefined ? undefined : kf.Parse.duration(job.activeDeadline, key('activeDeadline')),
  };
}
