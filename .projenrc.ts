import { cdk8s, javascript } from 'projen';
import { linkedFiles } from './projenrc/linked-files';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-kubeflow',
  description: 'Kubeflow training jobs and Notebooks v2 workspaces as typed cdk8s constructs',
  keywords: ['cdk8s', 'kubeflow', 'kubernetes', 'pytorch', 'tensorflow', 'mpi', 'notebooks', 'gpu', 'kueue'],
  author: 'cdk8s-kubeflow authors',
  authorAddress: 'maintainers@cdk8s-kubeflow.dev',
  repositoryUrl: 'https://github.com/cdk8s-kubeflow/cdk8s-kubeflow',
  license: 'Apache-2.0',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  // Supported: Node 22 and 24 (CI runs jest on both). The engines field says `>= 22.0.0`: npm only
  // warns (EBADENGINE) when the package is installed on an older Node, and ignores the field of
  // the project it runs in, so `npm ci && npm test` still works on a machine with Node 20 (past its
  // end of life, not supported). No upper bound, which would warn on every newer Node.
  minNodeVersion: '22.0.0',

  // Toolchain: jsii 6 is the newest line and runs on Node 20; typescript-eslint and ts-jest
  // accept TypeScript 6.0 but not 7, so the dev compiler is pinned to the same line.
  jsiiVersion: '~6.0.0',
  typescriptVersion: '~6.0.0',
  cdk8sVersion: '2.70.0',
  constructsVersion: '10.3.0',
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  devDeps: [
    // The CLI's fast YAML parser (src/cli/base/yaml-parser.ts). The library never loads it; the command
    // ships it inside its one-file bundle (scripts/bundle-cli.ts), so the package has no dependency.
    'js-yaml@^4.1.0',
    // Bundles the command into one file at compile time (scripts/bundle-cli.ts).
    'esbuild@^0.28.2',
    'cdk8s-plus-28@2.5.6',
    'cdk8s-cli@^2.207.0',
    'json2jsii@0.5.19',
    'camelcase@^6.3.0',
    '@types/js-yaml@^4.0.9',
    'fast-check@^4.3.0',
    // Parses the CRDs' CEL rules at import time (scripts/l1/cel-rules.ts) and is the tests' oracle for
    // the library's evaluator of them; never loaded by the library itself.
    '@bufbuild/cel@0.6.1',
    '@bufbuild/protobuf@^2.6.2',
    'ts-node@^10.9.2',
  ],

  // The L1s live in imports/ beside src/, so the compiler's root is the project itself and the
  // entry point moves to lib/src.
  entrypoint: 'lib/src/index.js',
  entrypointTypes: 'lib/src/index.d.ts',
  tsconfig: {
    // Source maps in files of their own: inline ones are three quarters of the compiled bytes
    // and every require() of the package would read and parse them.
    compilerOptions: { rootDir: '.', inlineSourceMap: false, inlineSources: false, sourceMap: true },
    include: ['src/**/*.ts', 'imports/**/*.ts'],
  },
  eslintOptions: {
    dirs: ['src'],
    devdirs: ['test', 'examples', 'scripts', 'bench', 'projenrc'],
    ignorePatterns: ['imports/**', '*.js', '*.d.ts', 'node_modules/', 'lib/'],
  },

  // dist/ is where `cdk8s synth` writes the example manifests, so packages go elsewhere.
  artifactsDirectory: 'dist-packages',

  jestOptions: {
    // CI must fail on a changed manifest, never rewrite the snapshot.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      collectCoverage: false,
      testTimeout: 120_000,
    },
  },

  publishToPypi: {
    distName: 'cdk8s-kubeflow',
    module: 'cdk8s_kubeflow',
  },
  publishToMaven: {
    javaPackage: 'io.github.cdk8s_kubeflow',
    mavenGroupId: 'io.github.cdk8s-kubeflow',
    mavenArtifactId: 'cdk8s-kubeflow',
  },
  publishToGo: {
    moduleName: 'github.com/cdk8s-kubeflow/cdk8s-kubeflow-go',
    packageName: 'cdk8skubeflow',
  },

  // No hosted CI or release automation: .ci/run is the whole pipeline.
  github: false,
  release: false,
  buildWorkflow: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  sampleCode: false,
  gitignore: ['/.synth-staging-*', '/test/.snippets-*', '/dist/', '/dist-packages/', '/.bench/', '/test/bindings/**/.venv/', '/test/bindings/**/target/', '__pycache__/', '/cdk.out/'],
});

// The pinned upstream files (CRDs and example corpora) live in upstream/, each with its git blob
// SHA-1 in upstream/pins.json (upstream/README.md). import:verify checks the copies against the
// pins offline, then against the pinned releases from the Go module proxy; import checks the pins
// offline before it regenerates anything.
const verifyUpstream = 'ts-node --transpile-only --project tsconfig.dev.json scripts/upstream/verify.ts';
project.addTask('import:verify', {
  description: 'Check upstream/ against upstream/pins.json (blob SHA-1s), then against the pinned releases from the Go module proxy (--offline: the first only)',
  exec: verifyUpstream,
  receiveArgs: true,
});

// Regenerates imports/ (the L1s), src/rules/schema/crds/ (compact schemas) and the built-in
// runtime catalogue from the pinned CRDs and the Trainer corpus in upstream/.
project.addTask('import', {
  description: 'Generate the L1 classes in imports/ from the pinned CRDs in upstream/crds (after checking them against upstream/pins.json)',
  steps: [
    { exec: `${verifyUpstream} --offline` },
    { exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/generate-l1.ts' },
  ],
});

// The rules inventory (inventory/, issue #21): regenerates its CRD part from upstream/crds and the
// rules pages (docs/rules.md, docs/rules-crd-schema.md) from every inventory file.
project.addTask('inventory', {
  description: 'Regenerate inventory/crd-schema.generated.yaml and the rules pages docs/rules*.md from inventory/ and upstream/crds',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/inventory.ts',
});

// docs/versions.md from the support window (src/rules/support-window.ts) and the rules that carry
// versions; docgen runs it too, and test/docs/versions-page.test.ts fails while it is stale.
const versionsPage = 'ts-node --transpile-only --project tsconfig.dev.json scripts/versions-page.ts';
project.addTask('docs:versions', {
  description: 'Regenerate docs/versions.md from the support window table',
  exec: versionsPage,
});

// Synthesizes every example into dist/ through the cdk8s CLI, exactly as a GitOps repo would,
// swapping the output in only when synthesis succeeded.
project.addTask('synth', {
  description: 'Synthesize the examples into dist/ (dist/ is left as it was if synthesis fails)',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/safe-synth.ts',
});

// The npm tarball is an allowlist: whatever else the working tree holds (conformance/, build logs,
// test reports, synthesized examples, scratch folders) stays out. The compiled library with its
// declarations and source maps (the maps make the stack of an internal error point into src/),
// the jsii assembly, the launcher, and the README, licence and API reference; npm adds
// package.json. And the pages the README links to, with what they link to in docs/ and examples/
// (projenrc/linked-files.ts), so its links work where users read it: in node_modules and on the
// registry's page. A page newly linked needs `npx projen`; test/package/npm-package.test.ts packs a tree
// full of junk, checks the exact list and that every relative link resolves inside the tarball.
project.package.addField('files', [
  'lib/**/*.js', 'lib/**/*.d.ts', 'lib/**/*.js.map', '!lib/src/cli/**', '.jsii', 'bin/cdk8s-kubeflow', 'README.md', 'LICENSE', 'API.md',
  ...linkedFiles(__dirname),
]);

// The command's modules import js-yaml, a dev dependency: the compile bundles it into the command's
// one file (scripts/bundle-cli.ts), and the library itself never loads it.
project.eslint?.allowDevDeps('src/cli/**');

// The cdk8s-kubeflow command (lint and plan, docs/cli.md): a launcher of the compiled
// lib/src/cli/main.js; the allowlist above puts it in the tarball.
project.addBins({ 'cdk8s-kubeflow': 'bin/cdk8s-kubeflow' });

// jsii reads the entry point's declarations from `types`, which projen would leave at lib/.
project.package.addField('types', 'lib/src/index.d.ts');

// Builds the Python, Java and Go packages with jsii-pacmak and runs each language's own tests
// against them (pytest in a venv, JUnit through Maven, go test with a replace directive).
project.addTask('test:bindings', {
  description: 'Build the Python, Java and Go packages and test each in its own language',
  exec: 'bash test/bindings/run.sh',
});

// The Python package alone, for Python users who build from a checkout: jsii-pacmak writes the
// wheel and sdist to dist-packages/python (ignored by git). --no-npmignore: pacmak would otherwise
// append its output folder to the tracked .npmignore, leaving the checkout dirty.
project.addTask('package:python-only', {
  description: 'Build only the Python package into dist-packages/python, leaving the checkout clean',
  steps: [
    { spawn: 'compile' },
    { exec: 'jsii-pacmak --no-npmignore --force-subdirectory --target python' },
  ],
});

// API.md (the library's own types, grouped, TypeScript and Python) and docs/api/<submodule>.md
// (the generated L1s) instead of one file with everything.
project.tasks.tryFind('docgen')!.reset('ts-node --transpile-only --project tsconfig.dev.json scripts/docgen.ts');
project.tasks.tryFind('docgen')!.exec(versionsPage);

// jsii's tools print a banner when the running Node.js is past its end of life or deprecated; the
// supported range is in the README once instead of on every compile.
project.tasks.addEnvironment('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '$(node -p "process.versions.node.split(\'.\')[0]")');
project.tasks.addEnvironment('JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION', '1');

// Speed, load cost and size against baselines measured in the same run; prints a table.
project.addTask('bench', {
  description: 'Run the benchmarks and print the table (also written to docs/benchmarks.md)',
  exec: 'ts-node --project tsconfig.dev.json bench/run.ts',
  // `npm run bench -- --no-write` reaches run.ts only when the task passes its arguments on.
  receiveArgs: true,
});

// The test command compiles with jsii first, so a jsii error fails it, and type-checks the
// tests, examples, scripts and benchmarks (jest and the examples app only transpile them).
const typecheck = project.addTask('typecheck', {
  description: 'Type-check everything that is not part of the jsii compile',
  exec: 'tsc --noEmit -p tsconfig.dev.json',
});
// Order: compile, type-check, lint, then jest last, so the run ends with the test summary. Every
// manifest the tests validate is also written to test-reports/manifests for the Go conformance run.
project.testTask.reset();
project.testTask.spawn(project.compileTask);
project.testTask.spawn(typecheck);
project.testTask.spawn(project.tasks.tryFind('eslint')!);
project.testTask.exec('node -e "require(\'fs\').rmSync(\'test-reports/manifests\', { recursive: true, force: true })"');
project.testTask.exec('jest --passWithNoTests --ci', { receiveArgs: true });
project.testTask.env('MANIFESTS_DUMP_DIR', 'test-reports/manifests');

// Day-to-day: the jsii compile and jest without the slow suites (property tests, the own-repo
// guide, the child-process synth tests); PROPERTY_RUNS stays at its local default of 100.
project.addTask('test:quick', {
  description: 'Compile and run the fast tests (no property suites, no own-repo or child-process tests)',
  steps: [
    { spawn: 'compile' },
    { exec: 'jest --ci --testPathIgnorePatterns /properties/ /own-repo/ /docs/synth-output /scripts/safe-synth', receiveArgs: true },
  ],
});

// A real kube-apiserver, etcd and the training operator (built from pinned Go modules into a cache
// outside the repository on first run), on 127.0.0.1, with every example applied (docs/control-plane.md).
project.addTask('test:cluster', {
  description: 'Apply every example to a real kube-apiserver and the Kubeflow training operator (built from Go modules on first run)',
  steps: [{ spawn: 'synth' }, { exec: 'bash test/cluster/run.sh' }],
});

// The table of the boundary checks is written from the assembly jsii has just written, in the
// same compile: into src/ and, compiled, into lib/, so no second jsii run (a test compares them).
project.compileTask.exec('ts-node --transpile-only --project tsconfig.dev.json scripts/boundary-schema.ts');
// Then the compiled entry point is rewritten so that each export loads its module on first use:
// requiring the package costs only what a program touches (scripts/lazy-entry.ts).
project.compileTask.exec('ts-node --transpile-only --project tsconfig.dev.json scripts/lazy-entry.ts');
// Then the command is bundled into one file, which bin/cdk8s-kubeflow runs through V8's code cache:
// a CI step's call starts without resolving, reading and compiling a hundred modules (docs/cli.md).
project.compileTask.exec('ts-node --transpile-only --project tsconfig.dev.json scripts/bundle-cli.ts');

// Kubernetes' own validation (1.34 and 1.35), the training operator's webhooks (v1.9.4 and
// v1.9.0), Kubeflow Trainer's webhooks (v2.3.0 and v2.2.0) and Kueue's (v0.15.2 and v0.19.2), run
// in Go on every manifest the tests wrote, on dist/ and on a differential corpus
// (conformance/README.md); first, upstream/ against the pinned releases.
project.addTask('test:conformance', {
  description: 'upstream/ against the pinned releases, then Kubernetes 1.34 and 1.35 validation, the training-operator v1.9.4 and v1.9.0, Trainer v2.3.0 and v2.2.0, and Kueue v0.15.2 and v0.19.2 webhooks (Go, conformance/) on the tests\', examples\' and differential manifests',
  steps: [
    // The pinned upstream files against the releases themselves (training-operator v1.9.4 and
    // Trainer v2.3.0 are downloaded for the webhooks below anyway; a few seconds once cached).
    { spawn: 'import:verify' },
    { spawn: 'synth' },
    // What each example TrainJob asked for, beside dist/, for the Trainer oracle (conformance/trainer).
    { exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/example-intents.ts' },
    { exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/differential.ts' },
    // Invalid and boundary values on the schemas' leaf paths (LEAF_FUZZ_SEED, else the UTC date in CI; FUZZ_BUDGET), judged by
    // lint and the constructs; each module below writes its verdicts beside them (TestLeafFuzz).
    { exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/leaf-fuzz.ts' },
    { exec: 'go test -count=1 ./...', cwd: 'conformance/corpus' },
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/kubeflow' },
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/trainer' },
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/kube' },
    // Agreement per source; an undecided disagreement fails (conformance/testdata/fuzz-decided.json).
    { exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/leaf-fuzz-compare.ts' },
    // The other end of each upstream's window (docs/versions.md), each module with the build list
    // its release pins, printing one summary line per version: Kueue's CRDs, conversion and
    // webhooks at v0.15.2 and v0.19.2 (one shared source, conformance/kueue/shared), Trainer v2.2.0
    // beside v2.3.0, the training operator v1.9.0 beside v1.9.4, Kubernetes 1.35 beside 1.34 (not
    // on the leaf fuzz corpus: 1.34 judges that).
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/kueue/v0.15' },
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/kueue/v0.19' },
    { exec: 'go test -count=1 -v ./...', cwd: 'conformance/trainer-v2.2' },
    // The training operator v1.9.0 beside v1.9.4: its webhooks on the manifests and the fixtures
    // (the differential and leaf fuzz verdicts stay v1.9.4's, which kube/ and the comparison read).
    { exec: 'go test -count=1 -v -skip \'TestDifferential$|TestLeafFuzz\' ./...', cwd: 'conformance/kubeflow-v1.9.0' },
    { exec: 'go test -count=1 -v -skip TestLeafFuzz ./...', cwd: 'conformance/kube-v1.35' },
  ],
});

// Scratch folders of tests under test/ (added last: projen re-includes /test/ itself).
project.gitignore.addPatterns('/test/.snippets-*', '/test/bindings/**/.venv/', '/test/bindings/**/target/');
// The venv of the Python quick start (docs/bindings.md), made in the checkout.
project.gitignore.addPatterns('/.venv/');
// Build artefacts git ignores but npm would pack (an .npmignore replaces .gitignore for npm): the
// bindings' packages, the bench's scratch folder and the Python quick start's venv.
for (const scratch of ['/dist-packages/', '/.bench/', '/.venv/']) project.addPackageIgnore(scratch);

// npm scripts for the commands people type; projen keeps the task definitions.
for (const task of ['build', 'compile', 'test', 'test:quick', 'test:conformance', 'test:cluster', 'docgen', 'eslint', 'import', 'import:verify', 'synth', 'package-all', 'package:python-only', 'test:bindings', 'bench']) {
  project.package.setScript(task, `projen ${task}`);
}

project.synth();
