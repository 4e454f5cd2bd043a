import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.ts';
import { FIXTURE_SKINS } from '../../test/helpers/body.ts';
import { shippedRoots } from '../../test/helpers/component-roots.ts';
import { createTestServices } from '../../test/helpers/services.ts';
import { serveFromChild } from './child-process.ts';

/**
 * Anima's web app in a process of its own with the shipped components (the web chat's interface) and
 * the environment given as JSON in argv[2]: a voice conversation's server, apart from the client that
 * streams speech at it.
 */
const environment = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const harness = await createTestServices({ environment: { SKINS_DIR: FIXTURE_SKINS, ...environment }, componentRoots: shippedRoots });
const app = await buildApp(harness.services);
await app.listen({ host: '127.0.0.1', port: 0 });
serveFromChild((app.server.address() as AddressInfo).port, async () => {
  await app.close();
  await harness.close();
});
