// `node --import ./src/loader/register.mjs <entry>.ts`: runs the project's TypeScript as it is, as `npm start` does.
import { register } from 'node:module';

// Stack traces name the TypeScript lines (each module carries its source map).
process.setSourceMapsEnabled(true);
register('./typescript-hooks.mjs', import.meta.url);
