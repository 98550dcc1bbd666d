import { cdk8s, javascript } from 'projen';

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
  minNodeVersion: '20.16.0',

  // Toolchain: jsii 6 is the newest line and runs on Node 20; typescript-eslint and ts-jest
  // accept TypeScript 6.0 but not 7, so the dev compiler is pinned to the same line.
  jsiiVersion: '~6.0.0',
  typescriptVersion: '~6.0.0',
  cdk8sVersion: '2.70.0',
  constructsVersion: '10.3.0',
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  devDeps: [
    'cdk8s-plus-28@2.5.6',
    'cdk8s-cli@^2.207.0',
    'json2jsii@0.5.19',
    'camelcase@^6.3.0',
    'js-yaml@^4.1.0',
    '@types/js-yaml@^4.0.9',
    'ajv@^8.17.0',
    'fast-check@^4.3.0',
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

// Regenerates imports/ (the L1s) and test/schemas/ (compact schemas) from the pinned CRDs.
project.addTask('import', {
  description: 'Generate the L1 classes in imports/ from the pinned CRDs in ../shared/crds',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/generate-l1.ts',
});

// Synthesizes every example into dist/ through the cdk8s CLI, exactly as a GitOps repo would,
// swapping the output in only when synthesis succeeded.
project.addTask('synth', {
  description: 'Synthesize the examples into dist/ (dist/ is left as it was if synthesis fails)',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/safe-synth.ts',
});

// Only the compiled library, its .jsii assembly and the docs belong in the npm tarball.
for (const pattern of ['/imports/', '/examples/', '/scripts/', '/bench/', '/.bench/', '/docs/', '/cdk8s.yaml', '/tsconfig.dev.json',
  '/.ci/', '/dist-packages/', '/.synth-staging-*', '/test/']) {
  project.addPackageIgnore(pattern);
}

// The cdk8s-kubeflow command (lint and plan, docs/cli.md): a launcher of the compiled
// lib/src/private/cli/main.js; bin/ is not ignored, so it is in the tarball.
project.addBins({ 'cdk8s-kubeflow': 'bin/cdk8s-kubeflow' });

// jsii reads the entry point's declarations from `types`, which projen would leave at lib/.
project.package.addField('types', 'lib/src/index.d.ts');

// Builds the Python, Java and Go packages with jsii-pacmak and runs each language's own tests
// against them (pytest in a venv, JUnit through Maven, go test with a replace directive).
project.addTask('test:bindings', {
  description: 'Build the Python, Java and Go packages and test each in its own language',
  exec: 'bash test/bindings/run.sh',
});

// API.md (the library's own types, grouped, TypeScript and Python) and docs/api/<submodule>.md
// (the generated L1s) instead of one file with everything.
project.tasks.tryFind('docgen')!.reset('ts-node --transpile-only --project tsconfig.dev.json scripts/docgen.ts');

// jsii's tools print a banner when the running Node.js is past its end of life or deprecated; the
// supported range is in the README once instead of on every compile.
project.tasks.addEnvironment('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '$(node -p "process.versions.node.split(\'.\')[0]")');
project.tasks.addEnvironment('JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION', '1');

// Speed, load cost and size against baselines measured in the same run; prints a table.
project.addTask('bench', {
  description: 'Run the benchmarks and print the table (also written to docs/benchmarks.md)',
  exec: 'ts-node --project tsconfig.dev.json bench/run.ts',
});

// The test command compiles with jsii first, so a jsii error fails it, and type-checks the
// tests, examples, scripts and benchmarks (jest and the examples app only transpile them).
const typecheck = project.addTask('typecheck', {
  description: 'Type-check everything that is not part of the jsii compile',
  exec: 'tsc --noEmit -p tsconfig.dev.json',
});
project.testTask.prependSpawn(typecheck);
project.testTask.prependSpawn(project.compileTask);

// Scratch folders of tests under test/ (added last: projen re-includes /test/ itself).
project.gitignore.addPatterns('/test/.snippets-*', '/test/bindings/**/.venv/', '/test/bindings/**/target/');

// npm scripts for the commands people type; projen keeps the task definitions.
for (const task of ['build', 'compile', 'test', 'docgen', 'eslint', 'import', 'synth', 'package-all', 'test:bindings', 'bench']) {
  project.package.setScript(task, `projen ${task}`);
}

project.synth();
