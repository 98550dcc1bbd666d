/**
 * The storage URI a TrainJob's initializer receives, and what Kubeflow's initializer images accept.
 * The jobset plugin (v2.3.0 plugins/jobset/builder.go Initializer) upserts STORAGE_URI from
 * `initializer.<dataset|model>.storageUri` into the initializer container of the step with that
 * ancestor label, then upserts the job's `env` over it: a STORAGE_URI in that env replaces the
 * storageUri. The images Kubeflow builds (pkg/initializers, run as `python -m`) read STORAGE_URI
 * and dispatch on its scheme: the dataset initializer knows hf, s3 and cache, the model initializer
 * hf and s3, and any other scheme, or no STORAGE_URI, ends the step with an error, so the trainer
 * never starts. Its huggingface dataset download reads `hf://<owner>/<dataset>` (the path's first
 * part), the cache initializer `cache://<schema>/<table>` and needs TRAIN_JOB_NAME, CACHE_IMAGE,
 * IAM_ROLE and METADATA_LOC (types.py CacheDatasetInitializer: fields without defaults).
 */
import { Rule } from '../rule';
import { ANCESTOR_LABEL, DATASET_INITIALIZER, MODEL_INITIALIZER } from './names';

export const INITIALIZER_STORAGE_URI = new Rule('trainer', 'trainer/initializer-storage-uri', 'app',
  'kubeflow/trainer v2.3.0 plugins/jobset/builder.go Initializer (STORAGE_URI, then the job\'s env over it) and pkg/initializers dataset and model __main__.py (the schemes each image knows)',
  'the storage URI each initializer receives has a scheme its image knows (dataset: hf, s3, cache; model: hf, s3) in the form it reads, and is not replaced by a STORAGE_URI in the job\'s env');

type Report = (field: string, value: unknown, allowed: string) => void;

const STORAGE_URI = 'STORAGE_URI';

/** Kubeflow's initializer images, by path (any registry, tag or digest), and what each reads. */
const IMAGES: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string; readonly schemes: readonly string[] }> = [
  { pattern: /(^|\/)kubeflow\/trainer\/dataset-initializer([:@]|$)/, what: 'dataset', schemes: ['hf', 's3', 'cache'] },
  { pattern: /(^|\/)kubeflow\/trainer\/model-initializer([:@]|$)/, what: 'model', schemes: ['hf', 's3'] },
];

/** What the cache dataset initializer cannot start without (its config fields with no default). */
const CACHE_ENV = ['TRAIN_JOB_NAME', 'CACHE_IMAGE', 'IAM_ROLE', 'METADATA_LOC'];

const KEYS = [['dataset', DATASET_INITIALIZER], ['model', MODEL_INITIALIZER]] as const;

const envOf = (list: unknown): any[] => (Array.isArray(list) ? list : []);
const lastNamed = (env: any[], name: string) => [...env].reverse().find(e => e?.name === name);

/**
 * The TrainJob alone: a STORAGE_URI in `initializer.<key>.env` that differs from storageUri
 * replaces it in the container.
 */
export function initializerEnvFindings(job: any, report: Report): void {
  for (const [key] of KEYS) {
    const init = job?.spec?.initializer?.[key];
    if (typeof init?.storageUri !== 'string') continue;
    envOf(init.env).forEach((e: any, i: number) => {
      if (e?.name !== STORAGE_URI || e.value === init.storageUri) return;
      report(`spec.initializer.${key}.env[${i}]`, e, `expected no ${STORAGE_URI} beside spec.initializer.${key}.storageUri ("${init.storageUri}"): `
        + 'the Trainer sets STORAGE_URI from storageUri and then lays the env over it, so this entry replaces the storageUri; write the URI in storageUri only');
    });
  }
}

/** The TrainJob against its runtime: what the runtime's Kubeflow initializer images will do with the URI. */
export function initializerUriFindings(job: any, runtime: any, origin: string, report: Report): void {
  const jobs: any[] = Array.isArray(runtime?.spec?.template?.spec?.replicatedJobs) ? runtime.spec.template.spec.replicatedJobs : [];
  for (const [key, step] of KEYS) {
    const init = job?.spec?.initializer?.[key];
    if (typeof init !== 'object' || init === null) continue;
    const stepJob = jobs.find(j => j?.template?.metadata?.labels?.[ANCESTOR_LABEL] === step);
    const container = stepJob?.template?.spec?.template?.spec?.containers?.find((c: any) => c?.name === step);
    const image = typeof container?.image === 'string' ? IMAGES.find(i => i.pattern.test(container.image)) : undefined;
    if (!image) continue;
    const at = `spec.initializer.${key}`;
    const rt = `the runtime "${runtime.metadata?.name}"${origin}`;
    const jobEnv = envOf(init.env);
    const fromEnv = lastNamed(jobEnv, STORAGE_URI);
    const fromRuntime = lastNamed(envOf(container.env), STORAGE_URI);
    // The last writer wins: the job's env, then its storageUri, then the runtime's default.
    const source = fromEnv !== undefined ? { field: `${at}.env[${jobEnv.lastIndexOf(fromEnv)}].value`, value: fromEnv.value }
      : typeof init.storageUri === 'string' ? { field: `${at}.storageUri`, value: init.storageUri }
        : fromRuntime !== undefined ? { field: `${at}.storageUri`, value: undefined, runtimeValue: fromRuntime.value } : undefined;
    const mayCarry = init.secretRef !== undefined || envOf(container.envFrom).length > 0;
    if (source === undefined) {
      if (!mayCarry) {
        report(`${at}.storageUri`, undefined, `expected a storage URI such as ${image.what === 'dataset' ? '"hf://tatsu-lab/alpaca"' : '"hf://meta-llama/Llama-3.2-1B-Instruct"'}: `
          + `the ${step} container of ${rt} runs Kubeflow's ${image.what} initializer, which exits without STORAGE_URI, and neither the job nor the runtime sets it`);
      }
      continue;
    }
    const uri = 'runtimeValue' in source ? source.runtimeValue : source.value;
    if (typeof uri !== 'string') continue;
    const shown = 'runtimeValue' in source ? ` (the runtime's default "${uri}")` : '';
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase() ?? '';
    const knows = `Kubeflow's ${image.what} initializer in the ${step} container of ${rt} knows only ${image.schemes.map(s => `${s}://`).join(', ')} and ends the step with an error otherwise, so the trainer never starts`;
    if (!image.schemes.includes(scheme)) {
      report(source.field, source.value, `expected a URI of the form ${image.schemes.map(s => `${s}://...`).join(', ')}${shown}: ${knows}`);
      continue;
    }
    const rest = uri.slice(scheme.length + 3).split(/[?#]/)[0];
    const parts = rest.split('/');
    if (image.what === 'dataset' && (scheme === 'hf' || scheme === 'cache') && parts.length < 2) {
      const form = scheme === 'hf' ? 'hf://<owner>/<dataset>, such as hf://tatsu-lab/alpaca' : 'cache://<schema>/<table>';
      report(source.field, source.value, `expected ${form}${shown}: the ${step} container of ${rt} reads the part after the first "/" and fails without it`);
      continue;
    }
    if (scheme === 'cache' && !mayCarry) {
      const have = new Set([...envOf(container.env), ...jobEnv].filter(e => e?.valueFrom !== undefined || (typeof e?.value === 'string' && e.value !== '')).map(e => e?.name));
      const missing = CACHE_ENV.filter(n => !have.has(n));
      if (missing.length > 0) {
        report(`${at}.env`, init.env, `expected ${missing.join(', ')} in the env (or in the runtime's ${step} container): the cache initializer of ${rt} cannot start without them`);
      }
    }
  }
}
