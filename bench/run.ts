import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Report, type Benchmark } from './lib/report.ts';

/** `npm run bench [-- <name> ...] [--json]`: runs bench/<name>.ts (all of them by default). */
const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const writeJson = args.includes('--json');
const wanted = args.filter((arg) => !arg.startsWith('--'));
const available = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .map((file) => basename(file, '.ts'))
  .sort();
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark: ${unknown.join(', ')}. Available: ${available.join(', ')}\n`);
  process.exit(2);
}

for (const name of wanted.length > 0 ? wanted : available) {
  const module = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { default: Benchmark };
  const report = new Report(name);
  await module.default(report);
  if (writeJson) {
    mkdirSync(join(here, 'results'), { recursive: true });
    writeFileSync(
      join(here, 'results', `${name}.json`),
      `${JSON.stringify({ bench: name, at: new Date().toISOString(), figures: report.figures }, null, 2)}\n`,
    );
  }
}
process.exit(0);
