import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../src/body/clock.ts';
import { buildCompatApp } from '../../src/compat/app.ts';
import { shippedRoots } from './component-roots.ts';
import { startFakeOpenAi, type FakeOpenAi } from './openai-server.ts';
import { createTestServices, type TestServices } from './services.ts';

export interface CompatHarness {
  test: TestServices;
  app: FastifyInstance;
  model: FakeOpenAi;
  /** `http://127.0.0.1:<port>` of the listening compat app. */
  url: string;
  close(): Promise<void>;
}

/**
 * The compat app listening on port 0 over real services with the shipped components (interface/compat,
 * cortex/openai), the openai engine pointed at a local OpenAI-compatible test server. A `clock` (a
 * ManualClock) drives the stall timeouts and the header flush by hand.
 */
export async function startCompat(environment: Record<string, string> = {}, clock?: Clock): Promise<CompatHarness> {
  const model = await startFakeOpenAi();
  const test = await createTestServices({
    componentRoots: shippedRoots,
    ...(clock ? { clock } : {}),
    environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: 'fake-model', OPENAI_MAX_RETRIES: '0', ...environment },
  });
  const app = await buildCompatApp(test.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    test,
    app,
    model,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await test.close();
      await model.close();
    },
  };
}

/** Waits until the chain has nothing queued or in progress. */
export async function settled(harness: CompatHarness): Promise<void> {
  while (harness.test.services.chain.pending > 0) await new Promise((resolve) => setTimeout(resolve, 2));
}
