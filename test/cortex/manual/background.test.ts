import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundDeclinedError } from '../../../src/components/contract.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../../helpers/services.ts';

describe("the manual engine and the host's own requests", () => {
  let test: TestServices | undefined;
  afterEach(async () => test?.close());

  it('declines a background completion (memory extraction) instead of showing it to the operator', async () => {
    test = await createTestServices({ componentRoots: { cortex: shippedRoots.cortex }, environment: { CORTEX_ENGINE: 'manual' } });
    const engine = test.services.components.engine('manual');
    const asked = test.services.components.find('manual', 'cortex')?.instance?.routes?.find((route) => route.path === '/api/cortex/manual/pending');
    const completion = engine?.generate({
      messages: [{ role: 'user', content: 'Sam: hi\nAnima: hello' }],
      interfacePath: 'alpha/room',
      message: { senderId: 'anima', senderName: 'Anima', text: '' },
      signal: new AbortController().signal,
      background: true,
    });
    await expect(completion?.[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(BackgroundDeclinedError);
    expect((await asked?.handle({ query: {}, body: undefined }))?.body).toEqual({ pending: [] });
  });
});
