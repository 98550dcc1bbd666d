/**
 * Bundles the cdk8s-kubeflow command into one file, lib/cli/cdk8s-kubeflow.js, which
 * bin/cdk8s-kubeflow runs. A CI step calls the command once per push on a file or two, so its start
 * is most of what it costs: from the compiled modules, Node resolves, reads and compiles about 130
 * files (lib/src/cli, lib/src/rules and js-yaml) before the first document is read. One minified
 * file that the launcher compiles through V8's code cache starts in about half that time
 * (docs/benchmarks.md, row 8).
 *
 * What goes in: lib/src/cli/main.js and everything it requires, compiled by jsii as the library is
 * (so the rules are the very ones the constructs run), and js-yaml, the command's parser. What stays
 * out: cdk8s, cdk8s-plus-28, constructs and cdk8s's own `yaml`, which the command loads from the
 * program's installation where it needs them (`convert` and the positions of findings), as it did.
 * The licences of the packages bundled are appended to the file, as their licences ask.
 *
 * The compile task runs this after jsii and scripts/lazy-entry.ts. test/cli/bundle.test.ts runs the
 * bundled command against the compiled modules.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..');
export const BUNDLE = path.join(ROOT, 'lib', 'cli', 'cdk8s-kubeflow.js');
const ENTRY = path.join(ROOT, 'lib', 'src', 'cli', 'main.js');

/** Loaded from the program's installation, never bundled (peer dependencies and cdk8s's `yaml`). */
const EXTERNAL = ['cdk8s', 'cdk8s-plus-28', 'constructs', 'yaml'];

/** The only packages the bundle may hold; anything else the command starts to require fails the build. */
const BUNDLED_PACKAGES = ['js-yaml'];

/**
 * The schema of a kind is required by a template literal (`./crds/${file}`, src/rules/schema/index.ts),
 * so that each is read only when a manifest of that kind is checked. esbuild bundles every file that
 * the pattern could name and keys them by their file name with its extension: the `.js` is added to
 * the pattern here, which also keeps the declarations and source maps beside them out.
 */
const schemaModules: esbuild.Plugin = {
  name: 'schema-modules',
  setup(build) {
    build.onLoad({ filter: /[\\/]rules[\\/]schema[\\/]index\.js$/ }, args => {
      const source = fs.readFileSync(args.path, 'utf8');
      const pattern = 'require(`./crds/${file}`)';
      if (!source.includes(pattern)) throw new Error(`${args.path}: expected ${pattern}, which scripts/bundle-cli.ts rewrites`);
      return { contents: source.replace(pattern, 'require(`./crds/${file}.js`)'), loader: 'js' };
    });
  },
};

/** The packages under node_modules that the bundle's inputs come from. */
function packagesOf(inputs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const input of inputs) {
    const m = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
    if (m) names.add(m[1].replace(/\\/g, '/'));
  }
  return [...names].sort();
}

/** The licence texts of the bundled packages, as one comment for the end of the file. */
function licences(packages: readonly string[]): string {
  const parts = packages.map(name => {
    const folder = path.join(ROOT, 'node_modules', name);
    const pkg = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const file = fs.readdirSync(folder).find(f => /^licen[cs]e/i.test(f));
    if (!file) throw new Error(`${name}: no licence file to ship with the bundle`);
    const text = fs.readFileSync(path.join(folder, file), 'utf8').trim().replace(/\*\//g, '* /');
    return `${name} ${pkg.version} (${pkg.license}):\n\n${text}`;
  });
  return `/*!\n * cdk8s-kubeflow command bundle. It contains the following packages, under their licences:\n\n${parts.join('\n\n')}\n */\n`;
}

export async function bundleCli(): Promise<{ bytes: number; packages: string[] }> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${path.relative(ROOT, ENTRY)} is missing: run the jsii compile first`);
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    plugins: [schemaModules],
    minify: true,
    // Class and function names stay, for the stack of an internal error.
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const packages = packagesOf(Object.keys(result.metafile!.inputs));
  const unexpected = packages.filter(p => !BUNDLED_PACKAGES.includes(p));
  if (unexpected.length > 0) {
    throw new Error(`the command's bundle would hold ${unexpected.join(', ')}: list each in scripts/bundle-cli.ts (BUNDLED_PACKAGES or EXTERNAL), with what it is for`);
  }
  const code = Buffer.concat([Buffer.from(result.outputFiles![0].contents), Buffer.from(licences(packages))]);
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  fs.writeFileSync(BUNDLE, code);
  return { bytes: code.length, packages };
}

if (require.main === module) {
  bundleCli().then(({ bytes, packages }) => {
    process.stdout.write(`${path.relative(ROOT, BUNDLE)}: the command in one file, ${(bytes / 1024).toFixed(0)} KiB (bundled: ${packages.join(', ')})\n`);
  }, error => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
