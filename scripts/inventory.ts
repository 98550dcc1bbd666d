/**
 * Writes the generated parts of the rules inventory: inventory/crd-schema.generated.yaml (from the
 * pinned CRDs) and the rules pages docs/rules.md and docs/rules-crd-schema.md (from every inventory
 * file). test/scripts/inventory/inventory.test.ts fails when a committed copy differs from what this writes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CRD_SCHEMA_FILE, crdSchemaInventoryText } from './inventory/crd-schema-file';
import { inventoryDir } from './inventory/model';
import { rulesPages } from './inventory/rules-page';

const root = path.resolve(__dirname, '..');
fs.mkdirSync(inventoryDir(root), { recursive: true });
fs.writeFileSync(path.join(inventoryDir(root), CRD_SCHEMA_FILE), crdSchemaInventoryText(root));
for (const [file, text] of Object.entries(rulesPages(root))) fs.writeFileSync(path.join(root, file), text);
