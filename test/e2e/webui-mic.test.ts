import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, encodeWav } from '../../src/audio/wav.ts';
import { ARTIFACTS, startModelStack, watchErrors, type ModelStack } from '../helpers/browser.ts';
import { frameIn, ROUTE_SEND_AFTER_CLOSE, tapChat } from '../helpers/chat-wire.ts';

/** pocketsphinx listens for these phrases only, so the transcript is exact. */
const PHRASES = ['what time is it', 'good morning', 'turn on the kitchen light'];
/** Silence before and after the question in the fake microphone's file. */
const LEAD_SILENCE_S = 3;
const TRAILING_SILENCE_S = 1.5;

/** The frames the page sends on WS /api/audio/stream: JSON as parsed objects, PCM as its byte length. */
function watchAudioSocket(page: Page): Array<Record<string, unknown> | number> {
  const sent: Array<Record<string, unknown> | number> = [];
  page.on('websocket', (socket: WebSocket) => {
    if (new URL(socket.url()).pathname !== '/api/audio/stream') return;
    socket.on('framesent', ({ payload }) => void sent.push(typeof payload === 'string' ? (JSON.parse(payload) as Record<string, unknown>) : payload.length));
  });
  return sent;
}

describe('web UI: the microphone', () => {
  let stack: ModelStack | undefined;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-mic-'));
    const question = join(folder, 'question.wav');
    stack = await startModelStack({
      environment: { LIVE_CORTEX: 'vad', ACTIVE_AURIS_ENGINE: 'pocketsphinx', AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases: PHRASES }) },
      launch: { audioCapture: question },
    });
    // The question as the fake microphone's input: espeak-ng (Vox's local engine), with silence around it.
    // The file plays once from getUserMedia on, and what it plays before the page's worklet runs is lost
    // (as a person's words before "Listening" shows): the lead covers a slow start on a busy machine.
    const engine = await stack.server.test.services.audio.engines.vox.get('local');
    const speech = decodeWav((await engine.generate('What time is it?', undefined, { signal: new AbortController().signal })) as Uint8Array);
    const samples = new Int16Array(Math.round(speech.sampleRate * (LEAD_SILENCE_S + TRAILING_SILENCE_S)) + speech.samples.length);
    samples.set(speech.samples, Math.round(speech.sampleRate * LEAD_SILENCE_S));
    await writeFile(question, encodeWav({ ...speech, samples }));
  });

  afterAll(async () => {
    await stack?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('hands-free: the spoken question reaches the chat as the user’s message and is answered', { timeout: 120_000 }, async () => {
    const { server, fake, browser } = stack as ModelStack;
    fake.script({ kind: 'reply', text: 'It is noon.' });
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const wire = await tapChat(page);
    const audioFrames = watchAudioSocket(page);
    await page.goto(server.url);
    const history = await frameIn(wire.fromServer, (frame) => frame.type === 'chat_history', 'the chat history');

    const mic = page.getByRole('button', { name: 'Microphone' });
    await mic.click();
    await expect.poll(() => mic.getAttribute('aria-pressed'), { timeout: 20_000 }).toBe('true');
    await page.getByRole('status').filter({ hasText: 'Listening' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'webui-mic-listening.png') });

    await page.locator('.chat-message.user', { hasText: 'what time is it' }).waitFor({ timeout: 30_000 });
    await page.locator('.chat-message.assistant', { hasText: 'It is noon.' }).waitFor({ timeout: 15_000 });
    expect(fake.requests.at(-1)?.body.messages?.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('what time is it') });
    // The hello, then the config naming this window's conversation, then 20 ms chunks of 16 kHz 16-bit PCM.
    expect(audioFrames.slice(0, 2)).toEqual([
      { type: 'hello', token: expect.any(String) },
      { sample_rate: 16000, interface_path: history.interface_path },
    ]);
    expect(audioFrames[2]).toBe(640);
    // The partial line is cleared at the final transcript.
    expect(await page.locator('.mic-partial').isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-mic-answered.png') });

    await mic.click();
    await expect.poll(() => mic.getAttribute('aria-pressed'), { timeout: 20_000 }).toBe('false');
    expect(errors.filter((error) => error !== ROUTE_SEND_AFTER_CLOSE)).toEqual([]);
    await context.close();
  });
});
