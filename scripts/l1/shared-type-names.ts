/**
 * The public names of the types that several kinds (or several fields of one kind) share, by the
 * generalized path of the subtree (`*` a map value or a differing prefix, `[]` a list item, `a|b`
 * alternatives). These names are public API in every jsii language, so they come from this table
 * and not from the order in which the generator happens to find the subtrees: a CRD update that
 * shares a new subtree, or stops sharing one, fails the generator until the name is decided here.
 */
export const SHARED_TYPE_NAMES: { readonly [path: string]: string } = {
  // Training Operator v1: every job kind.
  'spec.runPolicy': 'RunPolicy',
  'spec.*ReplicaSpecs.*': 'ReplicaSpec',
  // Notebooks v2: Workspace and WorkspaceKind.
  'spec.podTemplate.podMetadata': 'PodMetadata',
  // Notebooks v2 WorkspaceKind.
  'spec.spawner.icon|logo': 'IconOrLogo',
  'spec.podTemplate.options.*Config.spawner': 'Spawner',
  'spec.podTemplate.options.*Config.values[].spawner': 'ValueSpawner',
  'spec.podTemplate.options.*Config.values[].redirect': 'Redirect',
  // Trainer v2: TrainingRuntime and ClusterTrainingRuntime have one spec.
  'spec.template': 'JobSetTemplate',
  'spec.podGroupPolicy': 'PodGroupPolicy',
  'spec.mlPolicy': 'MlPolicy',
  // Trainer v2 TrainJob: the dataset and model initializers take the same settings.
  'spec.initializer.dataset|model': 'InitializerSpec',
  // Trainer v2 TrainJob: the metadata a runtime patch may set on the JobSet, a job or a pod.
  'spec[]|runtimePatches|spec[]|replicatedJobs|template[]|spec|trainingRuntimeSpec.template.metadata': 'PatchMetadata',
  'spec.runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[].template.spec.template.spec.*ontainers[]': 'ContainerPatch',
  // Kueue: ClusterQueue and LocalQueue take the same fair-sharing weight.
  'spec.fairSharing': 'FairSharing',
  // Kueue v1beta2: ClusterQueue and Cohort take the same resource groups (quotas per flavor).
  'spec.resourceGroups[]': 'ResourceGroup',
  'spec[]|activityRules[]|match[]|match.matchImageConfig|matchNamespace|matchPodConfig': 'Match',
};

/** A shared subtree whose name is not in the table, or a table entry that no subtree uses. */
export class SharedTypeNameError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SharedTypeNameError';
  }
}

/**
 * Names shared subtrees from a table (SHARED_TYPE_NAMES by default), refusing a path it lacks and,
 * once every subtree is named, a name that was not used.
 */
export class SharedTypeNamer {
  private readonly used = new Map<string, string>();

  public constructor(private readonly table: { readonly [path: string]: string } = SHARED_TYPE_NAMES) {}

  /** The name of the subtree at `path`; `sites` (the fields it replaces) are named in the error. */
  public nameFor(path: string, sites: readonly string[]): string {
    const name = this.table[path];
    if (name === undefined) {
      throw new SharedTypeNameError(`the subtree at ${path} (${sites.join(', ')}) is shared but has no public name; `
        + 'add its path to SHARED_TYPE_NAMES in scripts/l1/shared-type-names.ts');
    }
    const other = this.used.get(name);
    if (other !== undefined) {
      throw new SharedTypeNameError(`SHARED_TYPE_NAMES gives the name ${name} to both ${other} and ${path}`);
    }
    this.used.set(name, path);
    return name;
  }

  /** Refuses table entries that no shared subtree of these modules used. */
  public checkAllUsed(paths: readonly string[] = Object.keys(this.table)): void {
    const unused = paths.filter(p => !this.used.has(this.table[p]) || this.used.get(this.table[p]) !== p);
    if (unused.length > 0) {
      throw new SharedTypeNameError(`SHARED_TYPE_NAMES has names that no shared subtree uses: ${unused.map(p => `${p} (${this.table[p]})`).join(', ')}; `
        + 'remove them from scripts/l1/shared-type-names.ts (a public type would disappear)');
    }
  }
}
