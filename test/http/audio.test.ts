import { describe, expect, it } from 'vitest';
import { decodeWav, isWav } from '../../src/audio/wav.ts';
import { useTestApp } from '../helpers/services.ts';

describe('audio helper endpoints', () => {
  const subject = useTestApp({ startInTest: true });
  const start = (environment: Record<string, string> = {}) => subject.start({ environment });

  it('GET /api/vox/speakers lists the active engine voices as {code, name, language}', async () => {
    await start();
    const response = await subject.app.inject({ method: 'GET', url: '/api/vox/speakers' });
    expect(response.statusCode).toBe(200);
    const speakers = response.json<Array<{ code: string; name: string; language: string }>>();
    expect(speakers.length).toBeGreaterThan(50);
    expect(speakers.find((speaker) => speaker.code === 'fr-fr')).toEqual({ code: 'fr-fr', name: expect.any(String), language: 'fr' });
  });

  it('GET /api/vox/speakers is 404 unknown_engine for an unknown engine, and [] for an engine without a list', async () => {
    await start();
    const unknown = await subject.app.inject({ method: 'GET', url: '/api/vox/speakers?engine=nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'unknown_engine' } });
    const http = await subject.app.inject({ method: 'GET', url: '/api/vox/speakers?engine=http' });
    expect(http.json()).toEqual([]);
  });

  it('GET /api/vox/sample: 400 without speaker, 404 no_samples, 404 unknown speaker, else a WAV', async () => {
    await start();
    const missing = await subject.app.inject({ method: 'GET', url: '/api/vox/sample?engine=local' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: { code: 'invalid_request' } });
    const noSamples = await subject.app.inject({ method: 'GET', url: '/api/vox/sample?engine=http&speaker=anna' });
    expect(noSamples.statusCode).toBe(404);
    expect(noSamples.json()).toMatchObject({ error: { code: 'no_samples' } });
    const unknownEngine = await subject.app.inject({ method: 'GET', url: '/api/vox/sample?engine=nope&speaker=x' });
    expect(unknownEngine.json()).toMatchObject({ error: { code: 'unknown_engine' } });
    const unknownSpeaker = await subject.app.inject({ method: 'GET', url: '/api/vox/sample?engine=local&speaker=zz-none' });
    expect(unknownSpeaker.statusCode).toBe(404);
    const sample = await subject.app.inject({ method: 'GET', url: '/api/vox/sample?speaker=de' });
    expect(sample.statusCode).toBe(200);
    expect(sample.headers['content-type']).toBe('audio/wav');
    expect(isWav(sample.rawPayload)).toBe(true);
    expect(decodeWav(sample.rawPayload).samples.length).toBeGreaterThan(10_000);
  });

  it('GET /api/languages is the read-only catalogue for the override editor', async () => {
    await start();
    const body = (await subject.app.inject({ method: 'GET', url: '/api/languages' })).json<{
      languages: Array<{ code: string; name: string }>;
      engines: string[];
    }>();
    expect(body.languages).toContainEqual({ code: 'fr', name: 'French' });
    expect(body.languages.every((language) => /^[a-z]{2}$/.test(language.code))).toBe(true);
    expect(body.engines).toEqual(expect.arrayContaining(['local', 'http']));
    expect((await subject.app.inject({ method: 'POST', url: '/api/languages' })).statusCode).toBe(404);
  });

  it('serves a generated speech file under /tts/ and nothing outside the output folder', async () => {
    await start();
    const spoken = await subject.harness.services.audio.vox.speak({ text: 'A file for the browser', interfacePath: 'webui/session' });
    expect(spoken.status).toBe('success');
    const file = await subject.app.inject({ method: 'GET', url: spoken.url as string });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/wav');
    expect(isWav(file.rawPayload)).toBe(true);
    for (const url of ['/tts/..%2Fpackage.json', '/tts/%2e%2e%2fsecret.wav', '/tts/vox-1-0123456789abcdef.wav', '/tts/']) {
      expect((await subject.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('sets the body audio state and talk when speech is produced', async () => {
    await start();
    const spoken = await subject.harness.services.audio.vox.speak({ text: 'Watch my lips move', interfacePath: 'webui/session' });
    const audio = subject.harness.services.body.getAudio();
    expect(audio).toMatchObject({ url: spoken.url, audio_duration_s: spoken.audio_duration_s });
    expect(audio?.lipsync_data).toEqual(spoken.lipsync);
    expect(subject.harness.services.body.getAnimation().state).toBe('talk');
  });
});
