import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServices, type TestServices } from '../helpers/services.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The first TypeScript block of the guide: the dice plugin exactly as a reader would copy it. */
async function guideExample(): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs', 'components.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!code) throw new Error('docs/components.md has no ts block');
  return code;
}

describe('the worked example of docs/components.md', () => {
  let harness: TestServices | undefined;
  let folder = '';
  afterEach(async () => {
    await harness?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('loads from a plugins folder with no edit under src/, and its action reaches the chain', async () => {
    // Inside the repository (git-ignored tmp/), so `zod` resolves; the contract import points at this checkout.
    folder = join(ROOT, 'tmp', `example-${randomUUID()}`);
    await mkdir(join(folder, 'dice'), { recursive: true });
    const code = (await guideExample()).replace("'../../src/components/contract.ts'", `'${join(ROOT, 'src', 'components', 'contract.ts')}'`);
    await writeFile(join(folder, 'dice', 'index.ts'), code);

    harness = await createTestServices({ componentRoots: { plugins: folder } });
    const { components, delivery } = harness.services;
    expect(components.find('dice', 'plugin')).toMatchObject({ status: 'loaded', reason: null });
    expect([...components.actions().keys()]).toContain('roll_die');

    const origin = { interfaceId: 'integration', interfacePath: 'integration/dice-test', messageId: 'm1', senderId: 'u1', metadata: {} };
    expect(await delivery.deliver(origin, { type: 'roll_die', payload: { sides: 1 } })).toMatchObject({ delivered: false, reason: 'invalid payload' });
    expect(await delivery.deliver(origin, { type: 'roll_die', payload: { sides: 20 } })).toEqual({ delivered: true });
    const said = await harness.services.history.chat.load('integration/dice-test');
    expect(said.map((message) => message.text)).toEqual([expect.stringMatching(/^\(The d20 shows ([1-9]|1\d|20)\.\)$/)]);
  });
});
