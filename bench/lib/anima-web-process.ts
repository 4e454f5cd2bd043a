import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.ts';
import { FIXTURE_SKINS } from '../../test/helpers/body.ts';
import { createTestServices } from '../../test/helpers/services.ts';
import { serveFromChild } from './child-process.ts';

/**
 * Anima's web app in a process of its own, on the test skin whose one idle clip never rotates (so the
 * state holds still for the whole run), with a face on: the state a desktop companion polls.
 */
const harness = await createTestServices({ environment: { SKINS_DIR: FIXTURE_SKINS, ACTIVE_SKIN: 'alt' } });
harness.services.body.setFaceValues({ Joy: 0.4, Surprised: 0.1 });
const app = await buildApp(harness.services);
await app.listen({ host: '127.0.0.1', port: 0 });
serveFromChild((app.server.address() as AddressInfo).port, async () => {
  await app.close();
  await harness.close();
});
