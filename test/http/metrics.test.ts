import type { AddressInfo } from 'node:net';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { startCompat, settled, type CompatHarness } from '../helpers/compat.ts';
import { parsePrometheusText } from '../helpers/prometheus-text.ts';
import { openSocket } from '../helpers/sockets.ts';

describe('GET /api/metrics', () => {
  let harness: CompatHarness;
  let web: App;
  afterEach(async () => {
    await web?.close();
    await harness?.close();
  });

  it('is Prometheus text with the stage histograms of an answer and the socket and queue gauges', async () => {
    harness = await startCompat();
    web = await buildApp(harness.test.services);
    await web.listen({ host: '127.0.0.1', port: 0 });
    const base = `127.0.0.1:${(web.server.address() as AddressInfo).port}`;
    harness.model.script({ kind: 'reply', text: 'Measured.', chunkSize: 3 });
    await new Ollama({ host: harness.url }).chat({ model: 'anima', messages: [{ role: 'user', content: 'hi' }], stream: false });
    await settled(harness);
    const sockets = await Promise.all([openSocket(`ws://${base}/ws`), openSocket(`ws://${base}/api/body/ws`)]);
    for (const { socket } of sockets) socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    // The welcome (the body's state) follows the hello: the socket is counted by then.
    await Promise.all(sockets.map((opened) => opened.next()));

    const response = await fetch(`http://${base}/api/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const families = parsePrometheusText(await response.text());
    const stages = families.get('anima_stage_seconds');
    expect(stages?.type).toBe('histogram');
    const counts = stages?.samples.filter((sample) => sample.name === 'anima_stage_seconds_count') ?? [];
    expect(Object.fromEntries(counts.map((sample) => [sample.labels.stage, sample.value]))).toEqual({ llm_first_token: 1, llm_total: 1, chain: 1 });
    expect(families.get('anima_ws_clients')?.samples[0]?.value).toBe(2);
    expect(families.get('anima_chain_queue_depth')?.samples[0]?.value).toBe(0);
    for (const { socket } of sockets) socket.close();
  });

  it('refuses an untrusted caller like every /api route', async () => {
    harness = await startCompat({ APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'secret-key-for-metrics' });
    web = await buildApp(harness.test.services);
    const refused = await web.inject({ method: 'GET', url: '/api/metrics' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthorized');
    const allowed = await web.inject({ method: 'GET', url: '/api/metrics', headers: { 'x-api-key': 'secret-key-for-metrics' } });
    expect(allowed.statusCode).toBe(200);
  });
});
