/**
 * Where a leaf lands: the field of an object a controller builds from the document (the Pods and
 * Services the training operator makes from a v1 job, the JobSet, Jobs and Pods the Trainer and
 * JobSet make from a TrainJob and its runtime, the StatefulSet, Service and pod the notebooks
 * controller makes from a Workspace and its WorkspaceKind). Such a leaf is often just `string` in
 * its own CRD, so its type and bounds say nothing about what the derived object refuses; the
 * fuzzer (scripts/fuzz/leaves.ts) adds the mutations of the field it lands in, with Kubernetes'
 * rules for that field (`k8s.io/apimachinery/pkg/util/validation` and `pkg/apis/core/validation`
 * at 1.34: label and annotation syntax and sizes, env var names, image whitespace, port numbers and
 * IANA port names, quantities and resource names, DNS names).
 *
 * A table from `<Kind> <leaf path>` patterns to the derived field's type; the first row that
 * matches wins. A map's keys land too (label and annotation keys, node selector keys, resource
 * names): `keyLanding` names the maps whose keys the fuzzer mutates as leaves of their own
 * (`<map>.{key}`).
 */
import type { Mutation } from './leaves';

/** The type of the derived object's field a leaf lands in. */
export type Landing =
  | 'label-value'
  | 'label-key'
  | 'annotation-value'
  | 'annotation-key'
  | 'env-name'
  | 'env-value'
  | 'container-image'
  | 'port'
  | 'port-name'
  | 'dns-label'
  | 'dns-subdomain'
  | 'derived-name'
  | 'quantity'
  | 'resource-name'
  | 'scheduler-name';

/** One row: the leaves a pattern names, the field type they land in, and where (for the docs). */
export interface LandingRow {
  readonly pattern: RegExp;
  readonly landing: Landing;
  readonly into: string;
}

/** The containers of any pod template (v1 replica templates, runtime and patch templates, pods). */
const CONTAINER = String.raw`(containers|initContainers|ephemeralContainers)\[\]`;
/** The kinds whose object name the controllers build names and label values from. */
const NAMED_PARENTS = '(PyTorchJob|TFJob|MPIJob|XGBoostJob|PaddleJob|JAXJob|MXJob|TrainJob|Workspace)';

/** Value leaves, by where they land. */
export const LANDINGS: readonly LandingRow[] = [
  { pattern: /\.(labels|matchLabels|nodeSelector)\.\*$/, landing: 'label-value', into: 'labels of the JobSet, Jobs, Pods, StatefulSet and Service; pod node selectors; label selectors' },
  { pattern: /\.annotations\.\*$/, landing: 'annotation-value', into: 'annotations of the JobSet, Jobs, Pods, StatefulSet and Service' },
  { pattern: new RegExp(String.raw`(${CONTAINER}\.env|\.trainer\.env|\.initializer\.(dataset|model)\.env|\.extraEnv)\[\]\.name$`), landing: 'env-name', into: "the containers' env of the Pods" },
  { pattern: new RegExp(String.raw`(${CONTAINER}\.env|\.trainer\.env|\.initializer\.(dataset|model)\.env|\.extraEnv)\[\]\.value$`), landing: 'env-value', into: "the containers' env of the Pods" },
  { pattern: new RegExp(String.raw`(${CONTAINER}\.image|spec\.trainer\.image|imageConfig\.values\[\]\.spec\.image)$`), landing: 'container-image', into: "the containers' image of the Pods" },
  { pattern: /\.(containerPort|hostPort|rdzvPort)$|\.ports\[\]\.port$/, landing: 'port', into: 'container ports, Service ports, the rendezvous endpoint' },
  { pattern: new RegExp(String.raw`${CONTAINER}\.ports\[\]\.name$|^WorkspaceKind .*\.ports\[\]\.id$`), landing: 'port-name', into: 'container and Service port names' },
  { pattern: new RegExp(String.raw`^${NAMED_PARENTS} metadata\.name$`), landing: 'derived-name', into: 'the names, hostnames and label values the controllers derive from the object name' },
  { pattern: /(\.volumes|\.extraVolumes)\[\]\.name$|\.volumeMounts\[\]\.name$|\.extraVolumeMounts\[\]\.name$|\.replicatedJobs\[\]\.name$|\.spec\.(hostname|subdomain)$/, landing: 'dns-label', into: 'volume names, Job names and pod hostnames' },
  { pattern: /\.(serviceAccountName|serviceAccount|priorityClassName)$|\.schedulingPolicy\.priorityClass$/, landing: 'dns-subdomain', into: 'the Pods\' service account and priority class' },
  { pattern: /\.(resources|resourcesPerNode)\.(limits|requests)\.\*$|\.overhead\.\*$/, landing: 'quantity', into: "the containers' resources of the Pods" },
  { pattern: /\.schedulerName$/, landing: 'scheduler-name', into: "the Pods' scheduler" },
];

/** Maps whose keys land in a derived object (a key leaf `<map>.{key}` each). */
export const KEY_LANDINGS: readonly LandingRow[] = [
  { pattern: /\.(labels|matchLabels|nodeSelector)$/, landing: 'label-key', into: 'label keys of the derived objects; node selector and label selector keys' },
  { pattern: /\.annotations$/, landing: 'annotation-key', into: 'annotation keys of the derived objects' },
  { pattern: /\.(resources|resourcesPerNode)\.(limits|requests)$/, landing: 'resource-name', into: "resource names of the Pods' containers" },
];

/** The landing of a value leaf (`<Kind> <path>`), if any. */
export function landingOf(kind: string, path: string): Landing | undefined {
  return LANDINGS.find(row => row.pattern.test(`${kind} ${path}`))?.landing;
}

/** The landing of a map's keys (`<Kind> <map path>`), if they land. */
export function keyLandingOf(kind: string, mapPath: string): Landing | undefined {
  return KEY_LANDINGS.find(row => row.pattern.test(`${kind} ${mapPath}`))?.landing;
}

/** Kubernetes' total annotation size (TotalAnnotationSizeLimitB, 256 KiB): one value that long is over it with its key. */
const ANNOTATIONS_LIMIT = 256 * 1024;

/** A qualified name's keys, invalid in each way Kubernetes checks, and the longest valid one. */
function qualifiedNameKeys(landing: 'label-key' | 'annotation-key'): Mutation[] {
  return [
    { name: `${landing}/name-too-long`, value: 'a'.repeat(64) },
    { name: `${landing}/wrong-pattern`, value: 'Not_Valid-' },
    { name: `${landing}/two-slashes`, value: 'fuzz.io/a/b' },
    { name: `${landing}/bad-prefix`, value: 'Not_Valid.io/a' },
    { name: `${landing}/prefix-too-long`, value: `${'a'.repeat(254)}/a` },
    { name: `${landing}/empty`, value: '' },
    { name: `${landing}/boundary`, value: `fuzz.example.com/${'a'.repeat(63)}`, mustAccept: true },
  ];
}

/**
 * The values that test a landing: the field's rules broken one at a time, and one value its rules
 * allow (mustAccept), which the leaf's own schema may still refuse.
 */
export function landingMutations(landing: Landing): Mutation[] {
  switch (landing) {
    case 'label-value':
      return [
        { name: 'label-value/too-long', value: 'a'.repeat(64) },
        { name: 'label-value/wrong-pattern', value: 'Not_Valid-' },
        { name: 'label-value/slash', value: 'a/b' },
        { name: 'label-value/boundary', value: `a${'-_.'.repeat(20)}a`, mustAccept: true },
      ];
    case 'label-key':
    case 'annotation-key':
      return qualifiedNameKeys(landing);
    case 'annotation-value':
      return [
        { name: 'annotation-value/too-large', value: 'a'.repeat(ANNOTATIONS_LIMIT) },
        { name: 'annotation-value/any-text', value: 'any text: "quoted", {json}, $(VAR)\nsecond line', mustAccept: true },
      ];
    case 'env-name':
      return [
        { name: 'env-name/equals', value: 'FUZZ=1' },
        { name: 'env-name/control-character', value: 'FUZZ\tNAME' },
        { name: 'env-name/non-ascii', value: 'FÜZZ' },
        // RelaxedEnvironmentVariableValidation is GA in 1.34: any printable ASCII but "=".
        { name: 'env-name/relaxed', value: '1fuzz.env-name x', mustAccept: true },
      ];
    case 'env-value':
      return [{ name: 'env-value/any-text', value: 'a=b $(FUZZ) ${FUZZ}\nsecond line', mustAccept: true }];
    case 'container-image':
      return [
        { name: 'container-image/surrounding-space', value: ' image:1 ' },
        { name: 'container-image/trailing-newline', value: 'image:1\n' },
        { name: 'container-image/boundary', value: 'registry.example.com:5000/team/image@sha256:' + 'a'.repeat(64), mustAccept: true },
      ];
    case 'port':
      return [
        { name: 'port/zero', value: 0 },
        { name: 'port/too-large', value: 65536 },
        { name: 'port/boundary', value: 65535, mustAccept: true },
      ];
    case 'port-name':
      return [
        { name: 'port-name/too-long', value: 'a'.repeat(16) },
        { name: 'port-name/no-letter', value: '1234' },
        { name: 'port-name/underscore', value: 'fuzz_port' },
        { name: 'port-name/double-hyphen', value: 'fuzz--port' },
        { name: 'port-name/boundary', value: `p${'1'.repeat(14)}`, mustAccept: true },
      ];
    case 'dns-label':
      return [
        { name: 'dns-label/too-long', value: 'a'.repeat(64) },
        { name: 'dns-label/dot', value: 'fuzz.a' },
        { name: 'dns-label/upper-case', value: 'Fuzz' },
        { name: 'dns-label/boundary', value: 'a'.repeat(63), mustAccept: true },
      ];
    case 'dns-subdomain':
      return [
        { name: 'dns-subdomain/too-long', value: 'a'.repeat(254) },
        { name: 'dns-subdomain/upper-case', value: 'Fuzz' },
        { name: 'dns-subdomain/boundary', value: 'fuzz.example-1.com', mustAccept: true },
      ];
    case 'derived-name':
      // Valid object names that the names and label values derived from them may not be: a
      // Service name is a DNS-1035 label (no leading digit, no dot), a label value at most 63.
      return [
        { name: 'derived-name/leading-digit', value: '1fuzz' },
        { name: 'derived-name/dot', value: 'fuzz.a' },
        { name: 'derived-name/label-value-too-long', value: 'a'.repeat(64) },
        { name: 'derived-name/short', value: 'f', mustAccept: true },
      ];
    case 'quantity':
      return [
        { name: 'quantity/milli', value: '500m' },
        { name: 'quantity/zero', value: '0' },
        { name: 'quantity/exponent', value: '1e3', mustAccept: true },
        { name: 'quantity/too-precise', value: '0.0001' },
      ];
    case 'resource-name':
      return [
        { name: 'resource-name/unqualified', value: 'fuzz' },
        { name: 'resource-name/wrong-pattern', value: 'Not_Valid-' },
        { name: 'resource-name/kubernetes-io', value: 'kubernetes.io/fuzz' },
        { name: 'resource-name/extended', value: 'example.com/fuzz', mustAccept: true },
      ];
    case 'scheduler-name':
      return [{ name: 'scheduler-name/not-a-subdomain', value: 'Not_Valid-' }];
  }
}
