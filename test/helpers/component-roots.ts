import { fileURLToPath } from 'node:url';
import type { ComponentRoots } from '../../src/components/discovery.ts';

const fixtures = fileURLToPath(new URL('../fixtures/components/', import.meta.url));
const repository = fileURLToPath(new URL('../../', import.meta.url));

/** The fixture components of test/fixtures/components. */
export const fixtureRoots: ComponentRoots = {
  interface: `${fixtures}interface`,
  plugins: `${fixtures}plugins`,
  cortex: `${fixtures}cortex`,
  interfaceDev: `${fixtures}interface_dev`,
  pluginsDev: `${fixtures}plugins_dev`,
};

/** The components shipped with the repository (cortex/, plugins/, interface/). */
export const shippedRoots: ComponentRoots = {
  interface: `${repository}interface`,
  plugins: `${repository}plugins`,
  cortex: `${repository}cortex`,
  interfaceDev: `${repository}interface_dev`,
  pluginsDev: `${repository}plugins_dev`,
};
