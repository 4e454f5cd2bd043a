import { writeFileSync } from 'node:fs';
import { renderEnvExample } from '../src/config/env-example.ts';

writeFileSync(new URL('../.env.example', import.meta.url), renderEnvExample());
process.stdout.write('wrote .env.example\n');
