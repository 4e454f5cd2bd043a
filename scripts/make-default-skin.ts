/**
 * Writes the default skin (skins/default/): the avatar, its animations with descriptors, and its persona.
 * The output is deterministic and committed; run `npm run make:skin` after changing anything in scripts/skin.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSkinFiles } from './skin/skin-files.ts';

const skinDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'skins', 'default');

let total = 0;
for (const [path, bytes] of generateSkinFiles()) {
  const target = join(skinDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  total += bytes.length;
  console.log(`${path.padEnd(52)} ${bytes.length.toString().padStart(8)} bytes`);
}
console.log(`${'total'.padEnd(52)} ${total.toString().padStart(8)} bytes`);
