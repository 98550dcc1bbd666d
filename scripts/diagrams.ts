/**
 * `npx ts-node scripts/diagrams.ts`: draws what each example chart writes, from its synthesized
 * YAML, as an SVG in docs/images/<chart>.svg: the custom resource on the left, its roles (pods)
 * in the middle, the volumes they mount on the right. The construct pages show them; a test
 * regenerates them and fails when a committed picture no longer matches the examples.
 *
 * Only what the manifests say is drawn, plus one fact about the operators: the Training Operator
 * creates one headless Service per pod for every kind but MPIJob v1 (`<job>-<role>-<index>`, see
 * the operator's `ReconcileServices` in pkg/controller.v1/common/service.go).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { YamlOutputType } from 'cdk8s';
import * as yaml from 'js-yaml';
import { buildExamples } from '../examples/main';
import { StableFileNamesApp } from '../src';
import { TRAINING_JOB_REPLICA_KEYS } from '../src/rules/kubernetes/replica-keys';

export const IMAGE_DIR = path.join('docs', 'images');

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any };

/** A box: a title line and detail lines. */
interface Box { readonly id: string; readonly title: string; readonly lines: readonly string[] }

/** What one picture holds: custom resources, their parts (roles, options), the volumes. */
interface Picture {
  readonly owners: Box[];
  readonly parts: Box[];
  readonly volumes: Box[];
  /** [from id, to id] */
  readonly edges: Array<[string, string]>;
  /** What the middle column holds: pods, or a WorkspaceKind's options. */
  partsLabel?: string;
}

/** Where each training kind keeps its replica specs (one table, the rule layer's). */
const REPLICA_SPECS = TRAINING_JOB_REPLICA_KEYS;

function seconds(s: number): string {
  if (s % 86400 === 0) return `${s / 86400}d`;
  if (s % 3600 === 0) return `${s / 3600}h`;
  if (s % 60 === 0) return `${s / 60}min`;
  return `${s}s`;
}

function resources(container: any): string {
  const limits = { ...container?.resources?.requests, ...container?.resources?.limits };
  return Object.entries(limits).map(([k, v]) => (k === 'cpu' ? `${v} CPU` : k === 'memory' ? `${v}` : k === 'ephemeral-storage' ? `${v} disk` : `${v} ${k}`)).join(' · ');
}

/** The volume box of a pod volume, keyed so that roles mounting the same source share it. */
function volumeBox(volume: any, claims: Map<string, Obj>): Box {
  if (volume.emptyDir) {
    return { id: `emptyDir:${volume.name}`, title: `${volume.name} (emptyDir)`, lines: [[volume.emptyDir.medium, volume.emptyDir.sizeLimit].filter(Boolean).join(', ')].filter(Boolean) };
  }
  if (volume.persistentVolumeClaim) return claimBox(volume.persistentVolumeClaim.claimName, claims);
  if (volume.configMap) return { id: `configMap:${volume.configMap.name}`, title: `${volume.configMap.name}`, lines: ['ConfigMap'] };
  if (volume.secret) return { id: `secret:${volume.secret.secretName}`, title: `${volume.secret.secretName}`, lines: ['Secret'] };
  return { id: `volume:${volume.name}`, title: volume.name, lines: [Object.keys(volume).filter(k => k !== 'name').join(', ')] };
}

function claimBox(name: string, claims: Map<string, Obj>): Box {
  const claim = claims.get(name);
  const lines = claim
    ? ['PVC, created in this chart', `${claim.spec?.resources?.requests?.storage ?? ''} ${(claim.spec?.accessModes ?? []).join(', ')}`.trim()]
    : ['PVC (existing)'];
  return { id: `pvc:${name}`, title: name, lines };
}

function addOnce(list: Box[], box: Box): void {
  if (!list.some(b => b.id === box.id)) list.push(box);
}

/** Mount lines of a volume box: where each role mounts it. */
function addMount(mounts: Map<string, Set<string>>, volumeId: string, text: string): void {
  if (!mounts.has(volumeId)) mounts.set(volumeId, new Set());
  mounts.get(volumeId)!.add(text);
}

function trainingJob(job: Obj, picture: Picture, claims: Map<string, Obj>, mounts: Map<string, Set<string>>): void {
  const run = job.spec.runPolicy ?? {};
  const labels = job.metadata.labels ?? {};
  picture.owners.push({
    id: `job:${job.metadata.name}`,
    title: `${job.kind} ${job.metadata.name}`,
    lines: [
      job.apiVersion,
      ...(job.metadata.namespace ? [`namespace ${job.metadata.namespace}`] : []),
      ...(labels['kueue.x-k8s.io/queue-name'] ? [`Kueue queue ${labels['kueue.x-k8s.io/queue-name']}`] : []),
      ...(run.cleanPodPolicy ? [`cleanPodPolicy ${run.cleanPodPolicy}`] : []),
      ...(run.ttlSecondsAfterFinished !== undefined ? [`deleted ${seconds(run.ttlSecondsAfterFinished)} after it finishes`] : []),
      ...(run.activeDeadlineSeconds !== undefined ? [`deadline ${seconds(run.activeDeadlineSeconds)}`] : []),
      ...(run.backoffLimit !== undefined ? [`backoffLimit ${run.backoffLimit}`] : []),
      ...(run.schedulingPolicy ? [`gang: minAvailable ${run.schedulingPolicy.minAvailable ?? 'all'}`] : []),
      ...(job.spec.elasticPolicy ? [`elastic ${job.spec.elasticPolicy.minReplicas ?? '?'}..${job.spec.elasticPolicy.maxReplicas ?? '?'} workers`] : []),
    ],
  });
  const services = job.kind !== 'MPIJob';
  for (const [role, spec] of Object.entries<any>(job.spec[REPLICA_SPECS[job.kind]])) {
    const pod = spec.template?.spec ?? {};
    const main = pod.containers?.[0] ?? {};
    const port = main.ports?.[0];
    const n = spec.replicas ?? 1;
    const id = `role:${job.metadata.name}:${role}`;
    const first = `${job.metadata.name}-${role.toLowerCase()}-0`;
    picture.parts.push({
      id,
      title: `${role} × ${n}`,
      lines: [
        `container ${main.name}`,
        ...(port ? [`port ${port.containerPort} (${port.name})`] : []),
        ...(resources(main) ? [resources(main)] : []),
        `restartPolicy ${spec.restartPolicy ?? '(operator default)'}`,
        `pods ${first}${n > 1 ? ` … -${n - 1}` : ''}`,
        services ? 'one headless Service per pod' : 'no Services (MPIJob v1)',
      ],
    });
    picture.edges.push([`job:${job.metadata.name}`, id]);
    const byName = new Map<string, any>((pod.volumes ?? []).map((v: any) => [v.name, v]));
    for (const mount of main.volumeMounts ?? []) {
      const volume = byName.get(mount.name);
      if (!volume) continue;
      const box = volumeBox(volume, claims);
      addOnce(picture.volumes, box);
      if (!picture.edges.some(([a, b]) => a === id && b === box.id)) picture.edges.push([id, box.id]);
      addMount(mounts, box.id, `at ${mount.mountPath}${mount.readOnly ? ', read-only' : ''}`);
    }
  }
}

function workspace(ws: Obj, picture: Picture, claims: Map<string, Obj>, mounts: Map<string, Set<string>>): void {
  const id = `ws:${ws.metadata.name}`;
  const options = ws.spec.podTemplate?.options ?? {};
  picture.owners.push({
    id,
    title: `Workspace ${ws.metadata.name}`,
    lines: [`namespace ${ws.metadata.namespace}`, `kind ${ws.spec.kind}`, ...(ws.spec.paused ? ['paused'] : [])],
  });
  const podId = `pod:${ws.metadata.name}`;
  picture.parts.push({ id: podId, title: `pod ${ws.metadata.name}`, lines: [`image option ${options.imageConfig}`, `pod-config option ${options.podConfig}`] });
  picture.edges.push([id, podId]);
  const volumes = ws.spec.podTemplate?.volumes ?? {};
  const link = (box: Box, where: string) => {
    addOnce(picture.volumes, box);
    picture.edges.push([podId, box.id]);
    addMount(mounts, box.id, where);
  };
  if (volumes.home) link(claimBox(volumes.home, claims), 'home');
  for (const d of volumes.data ?? []) link(claimBox(d.pvcName, claims), `at ${d.mountPath}${d.readOnly ? ', read-only' : ''}`);
  for (const s of volumes.secrets ?? []) link({ id: `secret:${s.secretName}`, title: s.secretName, lines: ['Secret'] }, `at ${s.mountPath}`);
}

const ANCESTOR = 'trainer.kubeflow.org/trainjob-ancestor-step';

/** A Trainer v2 runtime: the runtime, its replicated jobs (pods), the volumes they mount. */
function trainingRuntime(runtime: Obj, picture: Picture, claims: Map<string, Obj>, mounts: Map<string, Set<string>>): void {
  const id = `runtime:${runtime.metadata.name}`;
  const policy = runtime.spec.mlPolicy ?? {};
  const framework = Object.keys(policy).find(k => k !== 'numNodes') ?? 'no policy';
  const gang = Object.keys(runtime.spec.podGroupPolicy ?? {})[0];
  picture.owners.push({
    id,
    title: `${runtime.kind} ${runtime.metadata.name}`,
    lines: [
      runtime.kind === 'ClusterTrainingRuntime' ? 'cluster-scoped' : `namespace ${runtime.metadata.namespace ?? '(default)'}`,
      `${framework} policy, ${policy.numNodes ?? 1} node(s) by default`,
      ...(gang ? [`gang scheduling: ${gang}`] : []),
    ],
  });
  const claimTemplates: string[] = (runtime.spec.template?.spec?.volumeClaimPolicies ?? [])
    .flatMap((p: any) => (p.templates ?? []).map((t: any) => t.metadata?.name));
  for (const job of runtime.spec.template?.spec?.replicatedJobs ?? []) {
    const podId = `${id}:${job.name}`;
    const pod = job.template?.spec?.template?.spec ?? {};
    const main = (pod.containers ?? [])[0] ?? {};
    const step = job.template?.metadata?.labels?.[ANCESTOR];
    const waits = (job.dependsOn ?? []).map((d: any) => `${d.name} ${d.status}`);
    picture.parts.push({
      id: podId,
      title: `job ${job.name}${step ? ` (step ${step})` : ''}`,
      lines: [main.image ?? '', resources(main), ...(waits.length ? [`after ${waits.join(', ')}`] : [])].filter(Boolean),
    });
    picture.edges.push([id, podId]);
    const byName = new Map((pod.volumes ?? []).map((v: any) => [v.name, v]));
    for (const m of main.volumeMounts ?? []) {
      const volume: any = byName.get(m.name);
      const box = volume ? volumeBox(volume, claims)
        : claimTemplates.includes(m.name) ? { id: `claim-template:${m.name}`, title: `${m.name} (claim per TrainJob)`, lines: ['JobSet volume claim policy'] } : undefined;
      if (!box) continue;
      addOnce(picture.volumes, box);
      picture.edges.push([podId, box.id]);
      addMount(mounts, box.id, `at ${m.mountPath}`);
    }
  }
}

/** A TrainJob: the job, and the runtime it names (joined to the runtime's trainer job when both are drawn). */
function trainJob(job: Obj, picture: Picture, objects: Obj[]): void {
  const id = `trainjob:${job.metadata.name}`;
  const ref = job.spec.runtimeRef ?? {};
  const trainer = job.spec.trainer ?? {};
  const labels = job.metadata.labels ?? {};
  picture.owners.push({
    id,
    title: `TrainJob ${job.metadata.name}`,
    lines: [
      `runtime ${ref.kind ?? 'ClusterTrainingRuntime'} ${ref.name}`,
      ...(trainer.numNodes !== undefined ? [`${trainer.numNodes} node(s)${trainer.numProcPerNode ? ` × ${trainer.numProcPerNode} processes` : ''}`] : []),
      ...(job.spec.initializer ? [`initializers: ${Object.keys(job.spec.initializer).join(', ')}`] : []),
      ...(labels['kueue.x-k8s.io/queue-name'] ? [`Kueue queue ${labels['kueue.x-k8s.io/queue-name']}`] : []),
      ...(job.spec.managedBy ? [`managedBy ${job.spec.managedBy}`] : []),
    ],
  });
  const runtime = objects.find(o => o.kind === (ref.kind ?? 'ClusterTrainingRuntime') && o.metadata.name === ref.name);
  const target = runtime?.spec.template?.spec?.replicatedJobs?.find((j: any) => j.template?.metadata?.labels?.[ANCESTOR] === 'trainer');
  if (target) {
    picture.edges.push([id, `runtime:${ref.name}:${target.name}`]);
  } else {
    const partId = `runtime-by-name:${ref.name}`;
    addOnce(picture.parts, { id: partId, title: `runtime ${ref.name}`, lines: ['by name (not in this chart)'] });
    picture.edges.push([id, partId]);
  }
}

function workspaceKind(kind: Obj, picture: Picture): void {
  const id = `kind:${kind.metadata.name}`;
  picture.partsLabel = 'options';
  const spawner = kind.spec.spawner ?? {};
  picture.owners.push({ id, title: `WorkspaceKind ${kind.metadata.name}`, lines: ['cluster-scoped', ...(spawner.displayName ? [spawner.displayName] : [])] });
  const options = kind.spec.podTemplate?.options ?? {};
  for (const [key, label] of [['imageConfig', 'image options'], ['podConfig', 'pod-config options']] as const) {
    const values: any[] = options[key]?.values ?? [];
    const partId = `${id}:${key}`;
    picture.parts.push({ id: partId, title: label, lines: values.map(v => `${v.id}${v.id === options[key]?.spawner?.default ? ' (default)' : ''}`) });
    picture.edges.push([id, partId]);
  }
}

/** The picture of one chart's objects. */
export function pictureOf(objects: Obj[]): Picture {
  const picture: Picture = { owners: [], parts: [], volumes: [], edges: [] };
  const claims = new Map(objects.filter(o => o.kind === 'PersistentVolumeClaim').map(o => [o.metadata.name, o]));
  const mounts = new Map<string, Set<string>>();
  for (const o of objects) {
    if (REPLICA_SPECS[o.kind]) trainingJob(o, picture, claims, mounts);
    else if (o.kind === 'Workspace') workspace(o, picture, claims, mounts);
    else if (o.kind === 'WorkspaceKind') workspaceKind(o, picture);
    else if (/^(Cluster)?TrainingRuntime$/.test(o.kind)) trainingRuntime(o, picture, claims, mounts);
    else if (o.kind === 'TrainJob') trainJob(o, picture, objects);
  }
  // Where the volumes are mounted goes into their boxes, so the lines need no labels.
  picture.volumes.splice(0, picture.volumes.length, ...picture.volumes.map(v => ({ ...v, lines: [...v.lines, ...(mounts.get(v.id) ?? [])] })));
  return picture;
}

// ---- SVG ----------------------------------------------------------------------------------------

const COLUMNS = [
  { x: 20, width: 250, fill: '#e8eefb', stroke: '#3d5a98' },
  { x: 330, width: 300, fill: '#eaf5ea', stroke: '#3f7f3f' },
  { x: 690, width: 270, fill: '#fdf3e1', stroke: '#a8742a' },
];
const LINE = 16;
const PAD = 10;
const GAP = 14;
const CHAR = 6.4; // average width of a 12px sans-serif character

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fit(text: string, width: number): string {
  const max = Math.floor((width - 2 * PAD) / CHAR);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function height(box: Box): number {
  return PAD * 2 + LINE * (1 + box.lines.length) - 4;
}

/** Writes a picture as SVG: three columns of boxes joined by curves. */
export function svgOf(title: string, picture: Picture): string {
  const placed = new Map<string, { x: number; y: number; w: number; h: number }>();
  const body: string[] = [];
  const columns = [picture.owners, picture.parts, picture.volumes];
  const heights = columns.map(c => c.reduce((s, b) => s + height(b) + GAP, -GAP));
  const total = Math.max(...heights, 40);
  const top = 64;
  columns.forEach((boxes, i) => {
    const col = COLUMNS[i];
    let y = top + (total - Math.max(heights[i], 0)) / 2;
    for (const box of boxes) {
      const h = height(box);
      placed.set(box.id, { x: col.x, y, w: col.width, h });
      body.push(`  <rect x="${col.x}" y="${y}" width="${col.width}" height="${h}" rx="6" fill="${col.fill}" stroke="${col.stroke}"/>`);
      body.push(`  <text x="${col.x + PAD}" y="${y + PAD + 12}" font-weight="bold">${escape(fit(box.title, col.width))}</text>`);
      box.lines.forEach((line, j) => body.push(`  <text x="${col.x + PAD}" y="${y + PAD + 12 + LINE * (j + 1)}">${escape(fit(line, col.width))}</text>`));
      y += h + GAP;
    }
  });
  const curves = picture.edges.map(([from, to]) => {
    const a = placed.get(from)!;
    const b = placed.get(to)!;
    const x1 = a.x + a.w;
    const y1 = a.y + a.h / 2;
    const x2 = b.x;
    const y2 = b.y + b.h / 2;
    const mid = (x1 + x2) / 2;
    return `  <path d="M${x1} ${y1} C${mid} ${y1}, ${mid} ${y2}, ${x2} ${y2}" fill="none" stroke="#777" marker-end="url(#arrow)"/>`;
  });
  const width = COLUMNS[2].x + COLUMNS[2].width + 20;
  const h = top + total + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#222">`,
    '  <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="#777"/></marker></defs>',
    `  <rect width="${width}" height="${h}" fill="#ffffff"/>`,
    `  <text x="20" y="26" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...['custom resource', picture.partsLabel ?? 'pods', 'volumes']
      .map((label, i) => (columns[i].length > 0 ? `  <text x="${COLUMNS[i].x}" y="${top - 12}" fill="#666">${label}</text>` : ''))
      .filter(Boolean),
    ...curves,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** Every example chart's picture, by path relative to the project root. */
export function generate(): Map<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrams-'));
  try {
    buildExamples(new StableFileNamesApp({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
    const files = new Map<string, string>();
    for (const file of fs.readdirSync(outdir).filter(f => f.endsWith('.k8s.yaml')).sort()) {
      const chart = file.replace(/\.k8s\.yaml$/, '');
      const objects = (yaml.loadAll(fs.readFileSync(path.join(outdir, file), 'utf8')) as Obj[]).filter(Boolean);
      files.set(path.join(IMAGE_DIR, `${chart}.svg`), svgOf(`examples: chart ${chart} (dist/${file})`, pictureOf(objects)));
    }
    return files;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const root = path.join(__dirname, '..');
  fs.mkdirSync(path.join(root, IMAGE_DIR), { recursive: true });
  for (const [file, svg] of generate()) {
    fs.writeFileSync(path.join(root, file), svg);
    console.log(file);
  }
}
