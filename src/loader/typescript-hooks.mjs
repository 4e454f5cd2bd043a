import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/** ES modules only, as the project writes them (`.cts` would need CommonJS). */
const TYPESCRIPT = /\.m?ts$/;
const tsconfig = JSON.parse(await readFile(new URL('../../tsconfig.json', import.meta.url), 'utf8'));

/**
 * Loader hooks that strip the types of the project's own `.ts` modules with esbuild, and nothing more.
 * tsx would do it too, but it also wraps every function the code creates in a call that sets its name
 * (esbuild's keepNames), paid each time a closure is made: on a compat request's path that was about a
 * tenth of the server's CPU time (docs/decisions.md). Names need no help here: nothing is renamed.
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: path,
    tsconfigRaw: { compilerOptions: tsconfig.compilerOptions },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
