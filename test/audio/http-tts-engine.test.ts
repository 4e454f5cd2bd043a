import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeWav, isWav } from '../../src/audio/wav.ts';
import { audioHarness, pcmBytes, tone, toneWav } from '../helpers/audio.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A local HTTP TTS server: `/down` answers 500, `/slow` never answers, `/pcm` raw PCM, `/wav` a WAV file. */
async function ttsServer() {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(raw || '{}') as Record<string, unknown> });
      if (request.url === '/down') return void response.writeHead(500).end('broken');
      if (request.url === '/empty') return void response.writeHead(200).end();
      if (request.url === '/slow') return;
      const audio = request.url === '/wav' ? toneWav(0.3, 24000) : Buffer.from(pcmBytes(tone(0.5, 16000)));
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(audio);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, close: () => new Promise<void>((resolve) => server.closeAllConnections() ?? server.close(() => resolve())) };
}

describe('the http Vox engine against a local TTS server', () => {
  let server: Awaited<ReturnType<typeof ttsServer>>;
  let harness: Awaited<ReturnType<typeof audioHarness>>;
  afterEach(async () => {
    await harness?.close();
    server?.close();
  });

  it('fails over in order, sends the legacy payload with bearer key, model header and extras, and wraps PCM at HTTP_TTS_SAMPLE_RATE', async () => {
    server = await ttsServer();
    harness = await audioHarness({
      ACTIVE_VOX_ENGINE: 'http',
      HTTP_TTS_ENDPOINTS: `${server.base}/down, ${server.base}/empty,${server.base}/pcm`,
      HTTP_TTS_API_KEY: 's3cret',
      HTTP_TTS_MODEL: 'voice-model-2',
      HTTP_TTS_VOICE_WAV: '/srv/voices/anna.wav',
      HTTP_TTS_SAMPLE_RATE: '16000',
      HTTP_TTS_EXTRA_HEADERS: '{"x-tenant": "anima"}',
      HTTP_TTS_EXTRA_PARAMS: '{"speed": 1.2}',
    });
    const result = await harness.audio.vox.speak({ text: 'Hello from the speech server', interfacePath: 'test/1' });
    expect(result.status).toBe('success');
    expect(server.received.map((entry) => entry.path)).toEqual(['/down', '/empty', '/pcm']);
    const last = server.received[2] as Received;
    expect(last.body).toEqual({ text: 'Hello from the speech server', voice_wav: '/srv/voices/anna.wav', use_emo_text: true, speed: 1.2 });
    expect(last.headers).toMatchObject({ authorization: 'Bearer s3cret', model: 'voice-model-2', 'x-tenant': 'anima', 'content-type': 'application/json' });
    const wav = harness.audio.files.pathOf(result.filename as string) as string;
    const decoded = decodeWav(await import('node:fs/promises').then((fs) => fs.readFile(wav)));
    expect(decoded.sampleRate).toBe(16000);
    expect(result.audio_duration_s).toBe(0.5);
  });

  it('sends {text, reference_id, format} in reference mode and keeps a WAV answer as it is', async () => {
    server = await ttsServer();
    harness = await audioHarness({
      ACTIVE_VOX_ENGINE: 'http',
      HTTP_TTS_ENDPOINTS: `${server.base}/wav`,
      HTTP_TTS_REFERENCE_ID: 'ref-42',
      HTTP_TTS_FORMAT: 'wav',
    });
    const result = await harness.audio.vox.speak({ text: 'Reference mode speaking', interfacePath: 'test/1' });
    expect(server.received[0]?.body).toEqual({ text: 'Reference mode speaking', reference_id: 'ref-42', format: 'wav' });
    expect(server.received[0]?.headers.authorization).toBeUndefined();
    expect(server.received[0]?.headers.model).toBeUndefined();
    const file = await import('node:fs/promises').then((fs) => fs.readFile(harness.audio.files.pathOf(result.filename as string) as string));
    expect(isWav(file)).toBe(true);
    expect(decodeWav(file).sampleRate).toBe(24000);
  });

  it('falls back to the legacy TTS_ENDPOINTS and TTS_TIMEOUT_SECONDS, cutting a slow endpoint and trying the next', async () => {
    server = await ttsServer();
    const clock = new ManualClock();
    harness = await audioHarness(
      { ACTIVE_VOX_ENGINE: 'http', TTS_ENDPOINTS: `${server.base}/slow,${server.base}/pcm`, TTS_TIMEOUT_SECONDS: '3', HTTP_TTS_SAMPLE_RATE: '16000' },
      clock,
    );
    const speaking = harness.audio.vox.speak({ text: 'The first server is too slow', interfacePath: 'test/1' });
    await vi.waitFor(() => expect(server.received.map((entry) => entry.path)).toEqual(['/slow']), { timeout: 10_000 });
    clock.advance(3000);
    expect((await speaking).status).toBe('success');
    expect(server.received.map((entry) => entry.path)).toEqual(['/slow', '/pcm']);
  });

  it('reports an error when every endpoint fails (the caller then falls back to text)', async () => {
    server = await ttsServer();
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'http', HTTP_TTS_ENDPOINTS: `${server.base}/down`, VOX_FALLBACK_TO_TEXT: 'false' });
    expect(await harness.audio.vox.speak({ text: 'Nobody can say this', interfacePath: 'test/1' })).toMatchObject({
      status: 'error',
      detail: 'the engine returned no audio',
    });
  });

  it('maps an external endpoint with the vox mapping to a Vox engine named after it (legacy payload)', async () => {
    server = await ttsServer();
    const endpoint = {
      name: 'studio',
      protocol: 'custom',
      base_url: `${server.base}/`,
      extra_config: { legacy_http_tts: true, tts_voice_wav: 'me.wav', tts_endpoint_path: '/wav' },
      mappings: { vox: true },
    };
    harness = await audioHarness({ ACTIVE_VOX_ENGINE: 'studio', VOX_ENGINE_SETTINGS: JSON.stringify({ external_endpoints: [endpoint] }) });
    const result = await harness.audio.vox.speak({ text: 'Spoken by the studio endpoint', interfacePath: 'test/1' });
    expect(result).toMatchObject({ status: 'success', engine: 'studio' });
    expect(server.received[0]).toMatchObject({ path: '/wav', body: { text: 'Spoken by the studio endpoint', voice_wav: 'me.wav', use_emo_text: true } });
    expect(harness.audio.engines.vox.capabilities('studio')).toEqual({ external: true, local: false });
  });
});
