import { afterEach, describe, expect, it } from 'vitest';
import { createTestServices, type TestServices } from '../helpers/services.ts';

describe('audio ↔ message chain integration', () => {
  let harness: TestServices;
  afterEach(async () => harness?.close());

  const request = (overrides: Record<string, unknown> = {}) => ({
    text: 'Good morning, everyone!',
    emotion: 'happy',
    interfacePath: 'integration/companion',
    interfaceId: 'integration',
    mergedText: 'Good morning! (caption)',
    ...overrides,
  });

  it('registers the tts_speak hook while Vox is enabled, and removes it when Vox is disabled', async () => {
    harness = await createTestServices();
    const { assistant, config } = harness.services;
    expect(assistant.speech.current).toBeDefined();
    await config.set('ACTIVE_VOX_ENGINE', 'disabled');
    expect(assistant.speech.current).toBeUndefined();
    await config.set('ACTIVE_VOX_ENGINE', 'local');
    expect(assistant.speech.current).toBeDefined();
  });

  it('delivers the audio to the originating interface through its own message action, captioned with the merged text', async () => {
    harness = await createTestServices();
    const { assistant } = harness.services;
    expect(await assistant.speech.current?.speak(request())).toEqual({ status: 'success' });
    const outbox = await assistant.integrations.takeOutbox('companion');
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.payload).toEqual({ text: 'Good morning! (caption)', media: expect.stringMatching(/^file:\/\/.*\/tmp_tts\/vox-.*\.wav$/) });
  });

  it('tells the chain to send the text itself when synthesis fails (error), or nothing when the fallback is off (skipped)', async () => {
    harness = await createTestServices({ environment: { ACTIVE_VOX_ENGINE: 'http', HTTP_TTS_ENDPOINTS: 'http://127.0.0.1:9/none' } });
    const { assistant, config } = harness.services;
    expect(await assistant.speech.current?.speak(request())).toEqual({ status: 'error' });
    expect(await assistant.integrations.takeOutbox('companion')).toEqual([]);
    await config.set('VOX_FALLBACK_TO_TEXT', 'false');
    expect(await assistant.speech.current?.speak(request())).toEqual({ status: 'skipped' });
  });

  it('adds the live interface and the stt_transcribe action once Live and Auris are enabled', async () => {
    harness = await createTestServices();
    const { assistant, config } = harness.services;
    expect(assistant.components.actions().has('message_live')).toBe(false);
    expect(assistant.components.actions().has('stt_transcribe')).toBe(false);
    await config.set('LIVE_CORTEX', 'vad');
    await config.set('ACTIVE_AURIS_ENGINE', 'pocketsphinx');
    await expect.poll(() => assistant.components.actions().has('stt_transcribe')).toBe(true);
    expect(assistant.components.actions().has('message_live')).toBe(true);
    expect(assistant.components.find('live', 'interface')?.status).toBe('loaded');
    expect(assistant.components.find('auris', 'plugin')?.status).toBe('loaded');
  });
});
