import * as fs from 'fs';
import * as path from 'path';
import { LINT_RULES } from '../../src/cli/rules/rules';
import { runCli } from '../cli/run-cli';

/**
 * Statements that several pages make about one fact must agree. Each fact is registered once, with
 * the wordings a page may use for each of its values (a regular expression per value, or one whose
 * first group is the value); every page (README.md and docs/**.md, line breaks read as spaces) is
 * searched for all of them, and the values found must be one, stated on at least the pages named,
 * and, where the code can say it, the code's. A page that words the fact anew and matches no pattern
 * is not checked: add its wording here (test/docs/claims.test.ts holds the claims of one page).
 */
const root = path.join(__dirname, '..', '..');
const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs'), { recursive: true })
  .map(f => path.posix.join('docs', String(f).split(path.sep).join('/'))).filter(f => f.endsWith('.md')).sort()];
const text = new Map(pages.map(p => [p, fs.readFileSync(path.join(root, p), 'utf8').replace(/\s+/g, ' ')]));

interface Claim {
  /** The fact, as a question. */
  readonly fact: string;
  /** Per value, the wordings that state it; or one pattern whose first group is the value. */
  readonly says: { readonly [value: string]: readonly RegExp[] } | RegExp;
  /** The pages that must state it. */
  readonly statedOn: readonly string[];
  /** The value the code gives, when the test can ask it. */
  readonly truth?: () => string;
}

/** Where each page states the claim, and what. */
function statements(claim: Claim): Array<{ page: string; value: string; words: string }> {
  const out: Array<{ page: string; value: string; words: string }> = [];
  for (const [page, flat] of text) {
    if (claim.says instanceof RegExp) {
      for (const m of flat.matchAll(new RegExp(claim.says.source, 'g'))) out.push({ page, value: m[1], words: m[0] });
      continue;
    }
    for (const [value, patterns] of Object.entries(claim.says)) {
      for (const p of patterns) for (const m of flat.matchAll(new RegExp(p.source, 'g'))) out.push({ page, value, words: m[0] });
    }
  }
  return out;
}

/**
 * Whether `plan` reads flavors' node labels, asked of the command: a job of 8 GPUs whose pods select
 * the h100 nodes, on a ClusterQueue with 4 GPUs of h100 and 8 of a100, is never admitted only if the
 * labels are matched; without its selector (the control) it fits the a100 flavor either way.
 */
function planMatchesNodeLabels(): string {
  const never = (yaml: string) => /never admitted/i.test(runCli(['plan', '--format', 'text', '-'], yaml).stdout);
  const control = never(SELECTING_H100.replace(/^ *nodeSelector:.*\n/m, ''));
  expect(control).toBe(false);
  return never(SELECTING_H100) ? 'yes' : 'no';
}
const SELECTING_H100 = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: h100}
spec: {nodeLabels: {example.com/gpu: h100}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
spec: {nodeLabels: {example.com/gpu: a100}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [nvidia.com/gpu]
      flavors:
        - {name: h100, resources: [{name: nvidia.com/gpu, nominalQuota: 4}]}
        - {name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team, namespace: vision}
spec: {clusterQueue: team}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: resnet, namespace: vision, labels: {kueue.x-k8s.io/queue-name: team}}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          nodeSelector: {example.com/gpu: h100}
          containers: [{name: pytorch, image: "p:1", resources: {limits: {nvidia.com/gpu: 8}}}]
`;

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const engines = pkg.engines.node as string;

const CLAIMS: readonly Claim[] = [
  {
    fact: 'does `plan` count only the ResourceFlavors whose node labels the pods\' selectors match?',
    says: {
      yes: [
        /`plan` count, for each podset, only the flavors Kueue \S+ would give its pods/,
        /[Tt]he flavors' node labels and taints are matched with the pods' selectors and tolerations/,
        /[Tt]he flavors' node labels are matched with the pods' `nodeSelector`/,
      ],
      no: [
        /[Tt]he flavors' node labels and taints are not matched/,
        /`plan` does not match [^.]*node labels/,
        /node labels [^.]*(?:is|are) not (?:matched|compared)[^.]*`plan`/,
      ],
    },
    statedOn: ['docs/cli.md', 'docs/kueue.md'],
    truth: planMatchesNodeLabels,
  },
  {
    fact: 'from which Node.js version does the library run, as supported?',
    says: /Node\.js (\d+) (?:or|and) \d+(?::| are) the versions (?:the|this) library supports/,
    statedOn: ['README.md', 'docs/own-repo.md'],
    // package.json's engines field, `>= 22.0.0`, as the pages write it (no trailing .0).
    truth: () => /^>=\s*(\d+(?:\.\d+)*)$/.exec(engines)![1].replace(/(\.0)+$/, ''),
  },
  {
    fact: 'which Node.js version do the pages\' GitHub Actions workflows set up?',
    says: /node-version: (\d+)/,
    statedOn: ['docs/cli.md', 'docs/own-repo.md'],
  },
  // The versions a page tells users to install are the ones the library is built and tested with.
  ...['cdk8s', 'cdk8s-plus-28', 'constructs'].map((name): Claim => ({
    fact: `which version of ${name} do the pages install?`,
    says: new RegExp(`(?<![\\w-])${name.replace(/[.-]/g, '\\$&')}@(\\d+\\.\\d+\\.\\d+)`),
    statedOn: ['docs/own-repo.md'],
    truth: () => pkg.devDependencies[name],
  })),
  ...['kubernetes', 'jobset', 'trainer', 'training-operator', 'notebooks', 'kueue', 'library'].map((source): Claim => ({
    fact: `how many rules of the ${source} source does \`cdk8s-kubeflow rules\` list?`,
    // docs/cli.md's table row, `| Kubernetes (`kubernetes`) | 122 |`.
    says: new RegExp(`\\| [^|]+ \\(\`${source}\`\\) \\| (\\d+) \\|`),
    statedOn: ['docs/cli.md'],
    truth: () => String(LINT_RULES.filter(r => r.source === source).length),
  })),
];

describe.each(CLAIMS.map(c => [c.fact, c]))('%s', (_, claim) => {
  const found = statements(claim);

  test('the pages that must state it do', () => {
    const stating = new Set(found.map(s => s.page));
    expect(claim.statedOn.filter(p => !stating.has(p))).toEqual([]);
  });

  test('every page that states it says the same', () => {
    const values = [...new Set(found.map(s => s.value))];
    // On a disagreement, every statement with its page, so the fix is plain.
    expect({ values: values.length, statements: values.length > 1 ? found : [] }).toEqual({ values: 1, statements: [] });
  });

  if (claim.truth !== undefined) {
    test('and that is what the code says', () => {
      expect([...new Set(found.map(s => s.value))]).toEqual([claim.truth!()]);
    });
  }
});

/** A registry gone stale (every wording of a fact reworded on every page) would check nothing: some wording of each is on a page. */
test('every yes/no claim is worded, on some page, as the registry knows it', () => {
  for (const claim of CLAIMS) {
    if (claim.says instanceof RegExp) continue;
    const used = Object.values(claim.says).flat().filter(p => [...text.values()].some(t => p.test(t)));
    expect({ fact: claim.fact, used: used.length > 0 }).toEqual({ fact: claim.fact, used: true });
  }
});
