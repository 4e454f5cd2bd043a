/** `npm run build:webui`: bundles the browser client into dist/webui (npm start also does it when stale). */
import { buildWebui } from '../src/system/webui-build.ts';

const { outDir, ms } = await buildWebui();
process.stdout.write(`web UI built into ${outDir} in ${ms} ms\n`);
