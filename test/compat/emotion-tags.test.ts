import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { startCompat, type CompatHarness } from '../helpers/compat.ts';

describe('the compat port and emotion tags', () => {
  let harness: CompatHarness;
  afterEach(async () => harness?.close());

  it('streams the answer without its tags, however the chunks cut them, to the official ollama client', async () => {
    // Memory would ask the same scripted model for its own extraction after each answer.
    harness = await startCompat({ MEMORY_ENABLED: 'false' });
    const client = new Ollama({ host: harness.url });
    const text = '[em_happy] Hello there! [em_surprised:0.8] What a day.';
    for (const chunkSize of [1, 3, 7]) {
      harness.model.script({ kind: 'reply', text, chunkSize });
      const chunks: string[] = [];
      for await (const chunk of await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }], stream: true }))
        chunks.push(chunk.message.content);
      expect(chunks.join('')).toBe('Hello there! What a day.');
      expect(chunks.some((chunk) => chunk.includes('[') || chunk.includes('em_'))).toBe(false);
    }
    harness.model.script({ kind: 'reply', text: 'Sure [em_relaxed:0.4] thing.' });
    const whole = await client.chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(whole.message.content).toBe('Sure thing.');
  });
});
