/**
 * A template library that builds training jobs from a configuration file (teams.yaml): the
 * config holds strings and numbers, and a ConfigReader turns them into the typed values the
 * constructs take. A misspelt value is recorded with the config key that holds it, and the
 * library goes on, so that synthesis reports every mistake of the config, and of the constructs,
 * in one error. docs/config-driven.md walks through it; test/docs/config-driven.test.ts runs it.
 */
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
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
  readonly cpu?: string | number;
  readonly memory?: string;
  readonly sharedMemory?: string;
  readonly restartPolicy?: string;
  readonly cleanPodPolicy?: string;
  readonly ttlAfterFinished?: string;
  readonly activeDeadline?: string;
  readonly nprocPerNode?: string;
  readonly successPolicy?: string;
  readonly elastic?: { readonly minWorkers: number; readonly maxWorkers: number; readonly rendezvousBackend?: string };
  readonly volumes?: ReadonlyArray<{ readonly name: string; readonly claim: string; readonly path: string }>;
}

interface TeamsConfig {
  readonly defaults?: Partial<JobConfig>;
  readonly teams: { readonly [team: string]: { readonly namespace: string; readonly queue?: string; readonly jobs: JobConfig[] } };
}

/** Adds one chart per team, with its jobs, to `app`; `app.synth()` reports every mistake at once. */
export function teamsFromConfig(app: App, configYaml: string): void {
  const config = yaml.load(configYaml) as TeamsConfig;
  // Reads every value of the config, recording each refused one with its key; reported at synth.
  const read = new kf.ConfigReader(app, 'config');
  for (const [team, spec] of Object.entries(config.teams)) {
    const chart = new Chart(app, team, { namespace: spec.namespace });
    spec.jobs.forEach((entry, i) => {
      const job = { ...config.defaults, ...entry };
      // Every error names the config key: `teams.vision.jobs[0].memory`.
      const key = (field: string) => `teams.${team}.jobs[${i}].${field}`;
      const common = {
        metadata: { name: job.name },
        image: job.image,
        workers: read.count(job.workers, key('workers')),
        queue: spec.queue,
        restartPolicy: read.restartPolicy(job.restartPolicy, key('restartPolicy')),
        resources: {
          cpu: read.cpu(job.cpu, key('cpu')),
          memory: read.size(job.memory, key('memory')),
          accelerator: read.accelerator(job.accelerator, job.gpus, key('accelerator'), key('gpus')),
        },
        sharedMemory: read.size(job.sharedMemory, key('sharedMemory')),
        runPolicy: {
          cleanPodPolicy: read.cleanPodPolicy(job.cleanPodPolicy, key('cleanPodPolicy')),
          ttlAfterFinished: read.duration(job.ttlAfterFinished, key('ttlAfterFinished')),
          activeDeadline: read.duration(job.activeDeadline, key('activeDeadline')),
        },
      };
      const built = job.framework === 'pytorch'
        ? new kf.DistributedPyTorch(chart, job.name, {
          ...common,
          nprocPerNode: read.nprocPerNode(job.nprocPerNode, key('nprocPerNode')),
          elastic: job.elastic && {
            minWorkers: job.elastic.minWorkers,
            maxWorkers: job.elastic.maxWorkers,
            rendezvousBackend: read.rendezvousBackend(job.elastic.rendezvousBackend, key('elastic.rendezvousBackend')),
          },
        })
        : new kf.ParameterServerTF(chart, job.name, {
          ...common,
          parameterServers: read.count(job.parameterServers, key('parameterServers')),
          successPolicy: read.successPolicy(job.successPolicy, key('successPolicy')),
        });
      // Each claim mounted under the volume name the config gives it.
      for (const volume of job.volumes ?? []) {
        const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, `${job.name}-${volume.claim}`, volume.claim);
        built.mount(volume.path, kplus.Volume.fromPersistentVolumeClaim(chart, `${job.name}-${volume.claim}-volume`, claim, { name: volume.name }));
      }
    });
  }
}
