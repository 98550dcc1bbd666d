/**
 * `npx projen docgen`: writes the API reference from the compiled assembly (.jsii) with
 * jsii-docgen's library API, in files a reader can use:
 *
 * - API.md: the library's own types (the root module: L2 constructs and what they take), grouped
 *   by what they are for (training jobs, notebooks, shared pieces) under a table of contents, each
 *   labelled with its kind, with the Python form of every usage block beside the TypeScript one;
 * - docs/api/<submodule>.md: the generated L1 reference of each submodule (kubeflow, notebooks,
 *   core), with headings qualified by the submodule (`notebooks.Workspace`), so no heading names
 *   two types.
 *
 * Links between the files point at the file that holds the type. A type that is not in the group
 * table below goes to "Other"; a test fails while any root type is there.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Documentation, JsiiEntity, Language } from 'jsii-docgen';

/** Where each file goes, relative to the project root. */
export const ROOT_FILE = 'API.md';
export const SUBMODULE_DIR = path.join('docs', 'api');

/** The group of each root type, in the order the table of contents lists them. */
export const GROUPS: ReadonlyArray<{ readonly title: string; readonly intro: string; readonly types: readonly string[] }> = [
  {
    title: 'Training jobs',
    intro: 'One construct per Training Operator kind, each with its props and the options only it has.',
    types: [
      'DistributedPyTorch', 'DistributedPyTorchProps', 'ElasticOptions', 'NprocPerNode', 'RendezvousBackend',
      'ParameterServerTF', 'ParameterServerTFProps', 'SuccessPolicy',
      'MpiAllReduce', 'MpiAllReduceProps', 'MpiLauncherOptions',
      'DistributedXGBoost', 'DistributedXGBoostProps',
      'DistributedPaddle', 'DistributedPaddleProps', 'PaddleMode', 'ElasticBounds',
      'DistributedJax', 'DistributedJaxProps',
    ],
  },
  {
    title: 'Notebooks',
    intro: 'Kubeflow Notebooks v2: the cluster-wide WorkspaceKind (for admins) and the per-user Workspace.',
    types: [
      'WorkspaceKind', 'WorkspaceKindProps', 'IWorkspaceKind', 'SpawnerImage', 'ImageConfigOptions', 'ImagePort',
      'PodConfigOptions', 'WorkspaceOptionProps', 'OptionRedirect', 'RedirectLevel', 'WorkspacePort',
      'ActivityProbe', 'ActivityProbeOptions', 'ScriptActivityProbeOptions', 'ActivityRule', 'FilterRule', 'FilterScope',
      'Workspace', 'WorkspaceProps', 'WorkspaceClaim', 'NewClaimOptions', 'DataVolume', 'DataVolumeOptions',
      'SecretVolume', 'SecretVolumeOptions',
    ],
  },
  {
    title: 'Trainer v2',
    intro: 'Kubeflow Trainer v2: runtimes that platform teams publish, and the TrainJobs data scientists write against them.',
    types: [
      'ClusterTrainingRuntime', 'TrainingRuntime', 'TrainingRuntimeBase', 'TrainingRuntimeProps', 'MlPolicy', 'MpiPolicyOptions',
      'FluxPolicyOptions', 'PodGroupPolicy', 'CoschedulingOptions', 'VolcanoPodGroupOptions', 'InitializerStepOptions',
      'InitializerWorkspaceOptions', 'TrainJob', 'TrainJobProps', 'TrainJobInitializer', 'TrainingRuntimeRef',
    ],
  },
  {
    title: 'Kueue',
    intro: 'The Kueue objects a platform queues jobs through: flavors of nodes, ClusterQueues with their quotas, cohorts that share quota in a tree, the LocalQueues and priority classes jobs name, and topologies (docs/kueue.md).',
    types: [
      'ResourceFlavor', 'ResourceFlavorProps', 'ClusterQueue', 'ClusterQueueProps', 'ResourceGroup', 'FlavorQuotas', 'ResourceQuota',
      'Cohort', 'CohortProps', 'ICohort',
      'ClusterQueuePreemption', 'PreemptionPolicy', 'QueueingStrategy', 'LocalQueue', 'LocalQueueProps', 'ILocalQueue',
      'WorkloadPriorityClass', 'WorkloadPriorityClassProps', 'IWorkloadPriorityClass', 'KueueTopology', 'KueueTopologyProps',
    ],
  },
  {
    title: 'Shared pieces',
    intro: 'What every training construct is built from and takes: the base of the top-level constructs, replica groups, resources, run policy, scheduling, security and platform defaults; '
      + 'the readers of a configuration file\'s values (Parse, ConfigReader); and the app that keeps file names when charts depend on each other.',
    types: [
      'KubeflowResource', 'TrainingJob', 'TrainingJobProps', 'ReplicaGroup', 'ReplicaOptions', 'RoleOptions',
      'Resources', 'Accelerator', 'Parse', 'ConfigReader', 'RunPolicy', 'CleanPodPolicy',
      'RestartPolicy', 'ManagedBy', 'GangScheduling', 'GangScheduler', 'PodSecurity',
      'PlatformDefaults', 'PlatformDefaultsProps', 'TargetVersions', 'EscapeHatch', 'PyTorchInitContainerTemplate', 'PyTorchInitContainerTemplateProps',
      'StableFileNamesApp',
    ],
  },
  {
    title: 'Large GPU jobs',
    intro: 'Topology-aware placement (Kueue, KAI scheduler), RDMA devices, secondary networks and NCCL settings, and nodes to stay off.',
    types: [
      'Topology', 'TopologyOptions', 'TopologySlices', 'KaiTopologyOptions',
      'GpuNetworking', 'RdmaDevice', 'NcclSettings', 'Nccl', 'NcclDebug', 'NodeHealth',
    ],
  },
];
export const OTHER = 'Other';

/** The group a root type is listed under. */
export function groupOf(name: string): string {
  return GROUPS.find(g => g.types.includes(name))?.title ?? OTHER;
}

/** One `### Type` section of a docgen page. */
interface TypeSection {
  readonly name: string;
  readonly id: string;
  /** The `## ...` section docgen put it under: Constructs, Structs, Classes, Protocols, Enums. */
  readonly kind: string;
  readonly text: string;
}

const TYPE_HEADING = /^### (\S+) <a name="[^"]*" id="([^"]+)"><\/a>$/;
const KIND_HEADING = /^## (\S+) <a name="[^"]*" id="[^"]*"><\/a>$/;

/** Splits a docgen page into its type sections (everything under a `###` heading). */
function typeSections(markdown: string): TypeSection[] {
  const out: TypeSection[] = [];
  let kind = '';
  let current: { name: string; id: string; kind: string; lines: string[] } | undefined;
  const flush = () => {
    if (current) out.push({ name: current.name, id: current.id, kind: current.kind, text: current.lines.join('\n').trim() });
    current = undefined;
  };
  for (const line of markdown.split('\n')) {
    const k = KIND_HEADING.exec(line);
    const t = TYPE_HEADING.exec(line);
    if (k) { flush(); kind = k[1]; } else if (t) {
      flush();
      current = { name: t[1], id: t[2], kind, lines: [] };
    } else if (current) { current.lines.push(line); }
  }
  flush();
  return out;
}

/** The parts of the .jsii assembly this script reads. */
interface AssemblyProperty { readonly name: string; readonly static?: boolean; readonly const?: boolean; readonly type?: { readonly fqn?: string } }
interface Assembly {
  readonly name: string;
  readonly submodules?: Record<string, unknown>;
  readonly types: Record<string, { readonly kind: string; readonly initializer?: unknown; readonly properties?: AssemblyProperty[] }>;
}

/**
 * A class without a public constructor whose values are its own constants (`CleanPodPolicy.ALL`)
 * or factories (`Accelerator.nvidia(2)`): jsii has no enums with behaviour, so the library's
 * "enums" are such classes, and docgen would list them as plain classes.
 */
function isEnumLike(assembly: Assembly, fqn: string): boolean {
  const type = assembly.types[fqn];
  return type?.kind === 'class' && !type.initializer
    && (type.properties ?? []).some(p => p.static && p.const && p.type?.fqn === fqn);
}

/** The label shown under each type heading. */
function kindLabel(assembly: Assembly, section: TypeSection): string {
  if (section.kind === 'Classes' && isEnumLike(assembly, section.id)) return 'Enum-like class';
  return {
    Constructs: 'Construct', Structs: 'Struct', Classes: 'Class', Protocols: 'Interface', Enums: 'Enum',
  }[section.kind] ?? section.kind;
}

/** The first sentence of a section's description (its first paragraph), for the table of contents. */
function summary(section: TypeSection): string {
  const lines = section.text.split('\n');
  const start = lines.findIndex(l => l.trim() && !/^(#|-|```|\||\*)/.test(l));
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && !l.trim());
  const paragraph = lines.slice(start, end < 0 ? undefined : end).join(' ');
  const sentence = /^(.*?[.!?])(\s|$)/.exec(paragraph)?.[1] ?? paragraph;
  return sentence.replace(/\|/g, '\\|');
}

/**
 * Puts the Python form of each usage block after the TypeScript one. docgen renders both from the
 * same schema, so a type's sections hold the same blocks in the same order; where the counts
 * differ (a block rosetta could not translate), the TypeScript stands alone.
 */
function withPython(ts: TypeSection, py: TypeSection | undefined): string {
  const tsBlocks = [...ts.text.matchAll(/^```typescript\n[\s\S]*?^```$/gm)];
  const pyBlocks = py ? [...py.text.matchAll(/^```python\n[\s\S]*?^```$/gm)].map(m => m[0]) : [];
  if (tsBlocks.length === 0 || tsBlocks.length !== pyBlocks.length) return ts.text;
  let i = 0;
  // Folded, so that the TypeScript reads on without a second block after every member.
  return ts.text.replace(/^```typescript\n[\s\S]*?^```$/gm, block => `${block}\n\n<details><summary>Python</summary>\n\n${pyBlocks[i++]}\n\n</details>`);
}

/** The submodule (kubeflow, notebooks, core) a jsii id belongs to, or '' for the root module. */
function submoduleOf(id: string, assembly: Assembly): string {
  const parts = id.split('.');
  const sub = parts[1];
  return parts.length > 2 && assembly.submodules?.[`${assembly.name}.${sub}`] !== undefined ? sub : '';
}

/** The file (relative to the project root) that documents a submodule's types. */
function fileOf(submodule: string): string {
  return submodule ? path.join(SUBMODULE_DIR, `${submodule}.md`) : ROOT_FILE;
}

/** Links to our own types go to the file that holds them; other packages' types stay plain names. */
function linkFormatter(assembly: Assembly, from: string) {
  return (type: JsiiEntity): string => {
    if (type.packageName !== assembly.name) return type.fqn;
    const target = fileOf(submoduleOf(type.id, assembly));
    const href = target === from ? '' : path.relative(path.dirname(from), target).split(path.sep).join('/');
    return `<a href="${href}#${type.id.replace(/ /g, '-')}">${type.displayName}</a>`;
  };
}

/** Rewrites `href="#<id>"` links docgen writes itself (tables of members) to the right file. */
function fixHrefs(markdown: string, assembly: Assembly, from: string): string {
  return markdown.replace(/href="#([^"]+)"/g, (whole, id: string) => {
    if (!id.startsWith(`${assembly.name}.`)) return whole;
    const target = fileOf(submoduleOf(id, assembly));
    if (target === from) return whole;
    return `href="${path.relative(path.dirname(from), target).split(path.sep).join('/')}#${id}"`;
  });
}

function anchor(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

/** API.md: the root module's types by group, with a table of contents. */
function rootPage(assembly: Assembly, ts: string, py: string): string {
  const sections = typeSections(ts);
  const python = new Map(typeSections(py).map(s => [s.id, s]));
  const groups = [...GROUPS.map(g => g.title), OTHER];
  const order = (s: TypeSection) => {
    const g = GROUPS.find(x => x.types.includes(s.name));
    return g ? g.types.indexOf(s.name) : Number.MAX_SAFE_INTEGER;
  };
  const byGroup = new Map(groups.map(g => [g, sections.filter(s => groupOf(s.name) === g)
    .sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name))]));
  const submodules = Object.keys(assembly.submodules ?? {}).map(s => s.split('.').pop()!).sort();

  const out: string[] = [
    '# API Reference',
    '',
    'The types of `cdk8s-kubeflow` itself: the L2 constructs and everything they take. Every usage',
    'block is in TypeScript, with its Python form folded below it ("Python"). The typed L1 classes',
    'generated from the Kubeflow CRDs are documented per submodule:',
    '',
    ...submodules.map(s => `- [\`${s}\`](${SUBMODULE_DIR.split(path.sep).join('/')}/${s}.md): ${SUBMODULE_TEXT[s] ?? 'generated L1 types'}`),
    '',
    'Generated by `npx projen docgen` (scripts/docgen.ts, with jsii-docgen) from the compiled assembly.',
    '',
    '## Contents',
    '',
  ];
  for (const g of groups) {
    const list = byGroup.get(g)!;
    if (list.length === 0) continue;
    out.push(`**[${g}](#${anchor(g)})**`, '', '| Type | Kind | Summary |', '| --- | --- | --- |');
    for (const s of list) out.push(`| [\`${s.name}\`](#${s.id}) | ${kindLabel(assembly, s)} | ${summary(s)} |`);
    out.push('');
  }
  for (const g of groups) {
    const list = byGroup.get(g)!;
    if (list.length === 0) continue;
    const intro = GROUPS.find(x => x.title === g)?.intro ?? 'Types not yet placed in a group (see GROUPS in scripts/docgen.ts).';
    out.push(`## ${g}`, '', intro, '');
    for (const s of list) {
      out.push(`### ${s.name} <a name="${s.name}" id="${s.id}"></a>`, '', `*${kindLabel(assembly, s)}*`, '', withPython(s, python.get(s.id)), '');
    }
  }
  return fixHrefs(out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n', assembly, ROOT_FILE);
}

const SUBMODULE_TEXT: Record<string, string> = {
  kubeflow: 'the training job kinds (PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob, MXJob) and their spec types',
  notebooks: 'the Notebooks v2 kinds (Workspace, WorkspaceKind) and their spec types',
  core: 'Kubernetes core types the CRDs embed in a newer version than cdk8s-plus-28\'s',
};

/** docs/api/<submodule>.md: the L1 reference, type headings qualified by the submodule. */
function submodulePage(assembly: Assembly, submodule: string, ts: string): string {
  const from = fileOf(submodule);
  const text = ts
    .replace(/^# .*$/m, `# \`${submodule}\` submodule (L1) <a name="${submodule}" id="${assembly.name}.${submodule}"></a>\n\n`
      + `Generated L1 classes and types: ${SUBMODULE_TEXT[submodule] ?? 'generated from the pinned CRDs'}. `
      + `Import them as \`import { ${submodule} } from '${assembly.name}'\` and write \`${submodule}.<Type>\`. `
      + `The L2 constructs are in [API.md](${path.relative(path.dirname(from), ROOT_FILE).split(path.sep).join('/')}).`)
    .replace(/^### (\S+) <a name="([^"]*)" id="([^"]+)"><\/a>$/gm, `### ${submodule}.$1 <a name="${submodule}.$2" id="$3"></a>`);
  return fixHrefs(text.replace(/\n{3,}/g, '\n\n').trimEnd() + '\n', assembly, from);
}

/** Every file of the reference, by path relative to the project root. */
export async function generate(root: string): Promise<Map<string, string>> {
  const assembly = JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8')) as Assembly;
  const docs = await Documentation.forProject(root);
  try {
    const files = new Map<string, string>();
    const rootOptions = { apiReference: true, readme: false, allSubmodules: false, linkFormatter: linkFormatter(assembly, ROOT_FILE) };
    const ts = await docs.toMarkdown({ ...rootOptions, language: Language.TYPESCRIPT });
    const py = await docs.toMarkdown({ ...rootOptions, language: Language.PYTHON });
    files.set(ROOT_FILE, rootPage(assembly, ts.render(), py.render()));
    for (const fqn of Object.keys(assembly.submodules ?? {}).sort()) {
      const submodule = fqn.split('.').pop()!;
      const file = fileOf(submodule);
      const md = await docs.toMarkdown({
        language: Language.TYPESCRIPT,
        apiReference: true,
        readme: false,
        submodule: fqn,
        linkFormatter: linkFormatter(assembly, file),
      });
      files.set(file, submodulePage(assembly, submodule, md.render()));
    }
    return files;
  } finally {
    await docs.cleanup();
  }
}

if (require.main === module) {
  const root = path.join(__dirname, '..');
  void generate(root).then(files => {
    for (const [file, text] of files) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
      console.log(`${file}: ${text.split('\n').length} lines, ${Math.round(Buffer.byteLength(text) / 1024)} KB`);
    }
  }).catch(e => { console.error(e); process.exit(1); });
}
