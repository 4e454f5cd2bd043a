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
    const { speech, config } = harness.services;
    expect(speech.current).toBeDefined();
    await config.set('ACTIVE_VOX_ENGINE', 'disabled');
    expect(speech.current).toBeUndefined();
    await config.set('ACTIVE_VOX_ENGINE', 'local');
    expect(speech.current).toBeDefined();
  });

  it('delivers the audio to the originating interface through its own message action, captioned with the merged text', async () => {
    harness = await createTestServices();
    const { speech, integrations } = harness.services;
    expect(await speech.current?.speak(request())).toEqual({ status: 'success' });
    const outbox = await integrations.takeOutbox('companion');
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.payload).toEqual({ text: 'Good morning! (caption)', media: expect.stringMatching(/^file:\/\/.*\/tmp_tts\/vox-.*\.wav$/) });
  });

  it('tells the chain to send the text itself when synthesis fails (error), or nothing when the fallback is off (skipped)', async () => {
    harness = await createTestServices({ environment: { ACTIVE_VOX_ENGINE: 'http', HTTP_TTS_ENDPOINTS: 'http://127.0.0.1:9/none' } });
    const { speech, integrations, config } = harness.services;
    expect(await speech.current?.speak(request())).toEqual({ status: 'error' });
    expect(await integrations.takeOutbox('companion')).toEqual([]);
    await config.set('VOX_FALLBACK_TO_TEXT', 'false');
    expect(await speech.current?.speak(request())).toEqual({ status: 'skipped' });
  });

  it('adds the live interface and the stt_transcribe action once Live and Auris are enabled', async () => {
    harness = await createTestServices();
    const { components, config } = harness.services;
    expect(components.actions().has('message_live')).toBe(false);
    expect(components.actions().has('stt_transcribe')).toBe(false);
    await config.set('LIVE_CORTEX', 'vad');
    await config.set('ACTIVE_AURIS_ENGINE', 'pocketsphinx');
    await expect.poll(() => components.actions().has('stt_transcribe')).toBe(true);
    expect(components.actions().has('message_live')).toBe(true);
    expect(components.find('live', 'interface')?.status).toBe('loaded');
    expect(components.find('auris', 'plugin')?.status).toBe('loaded');
  });
});
