/**
 * Generates the typed L1 classes in imports/ and the compact schemas the library validates
 * manifests against in src/rules/schema/crds/ from the pinned CRDs in upstream/crds, and the
 * catalogue of the Trainer's built-in runtimes from upstream/examples/upstream-v2/runtimes. Run
 * it with `npx projen import`, which first checks upstream/ against upstream/pins.json.
 *
 * Arguments, both optional: the CRD folder, and an output root that receives imports/ and
 * src/rules/schema/crds/ instead of the repository (tests use it to run the CLI against a scratch copy).
 */
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_CRD_ROOT, generate, SCHEMA_DIR, writeGenerated } from './l1/generate';
import { BUILTIN_RUNTIMES_MODULE, builtInRuntimesModule } from './trainer/builtin-runtimes';

const crdRoot = process.argv[2] || DEFAULT_CRD_ROOT;
const root = process.argv[3] ? path.resolve(process.argv[3]) : path.join(__dirname, '..');
try {
  const files = generate(crdRoot);
  writeGenerated(files, path.join(root, 'imports'), path.join(root, SCHEMA_DIR));
  for (const [name, content] of files.imports) console.log(`imports/${name}: ${content.split('\n').length - 1} lines`);
  console.log(`${SCHEMA_DIR}: ${files.schemas.size} modules`);
  // The Trainer release's built-in runtimes, which TrainJobs name without defining them.
  const catalogue = path.join(root, BUILTIN_RUNTIMES_MODULE);
  fs.mkdirSync(path.dirname(catalogue), { recursive: true });
  fs.writeFileSync(catalogue, builtInRuntimesModule());
  console.log(`${BUILTIN_RUNTIMES_MODULE}: written`);
} catch (e: any) {
  console.error(`generate-l1: ${e.message}`);
  process.exit(1);
}
