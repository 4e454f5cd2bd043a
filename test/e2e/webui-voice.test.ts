import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  allMediaPaused,
  mediaPlays,
  recordEvents,
  recorded,
  recordMediaPlays,
  startModelStack,
  waitForRecorded,
  watchErrors,
  type ModelStack,
} from '../helpers/browser.ts';
import { type ChatWire, type Frame, frameIn, ROUTE_SEND_AFTER_CLOSE, tapChat } from '../helpers/chat-wire.ts';

const isPiece = (seq: number) => (frame: Frame) => frame.type === 'tts_play' && frame.seq === seq;
/** The machine is shared and slow: polls wait as long as a frame may take. */
const POLL = { timeout: 20_000 };
const THREE_SENTENCES = 'The sun is up. The birds are singing. It is a fine morning.';

describe('web UI: streamed and spoken replies', { timeout: 120_000 }, () => {
  let stack: ModelStack | undefined;
  let context: BrowserContext;

  beforeAll(async () => {
    stack = await startModelStack();
  });

  afterEach(async () => context?.close());
  afterAll(async () => stack?.close());

  async function openChat(): Promise<{ page: Page; wire: ChatWire; errors: () => string[] }> {
    context = await (stack as ModelStack).browser.context();
    await recordMediaPlays(context);
    const page = await context.newPage();
    const logged = watchErrors(page);
    const errors = () => logged.filter((error) => error !== ROUTE_SEND_AFTER_CLOSE);
    const wire = await tapChat(page);
    await page.goto((stack as ModelStack).server.url);
    await frameIn(wire.fromServer, (frame) => frame.type === 'chat_history', 'the chat history');
    return { page, wire, errors };
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('grows the reply bubble while the model writes, then shows the whole reply once', async () => {
    const { fake } = stack as ModelStack;
    const answer = 'Here is the first part of my answer, and here comes the rest of it.';
    let release = () => {};
    fake.script({ kind: 'reply', text: answer, chunkSize: 4, hold: { at: 24, release: new Promise<void>((resolve) => (release = resolve)) } });
    const { page, errors } = await openChat();
    await ask(page, 'Tell me something');
    const bubble = page.locator('.chat-message.assistant p');
    await bubble.waitFor();
    await expect.poll(() => bubble.textContent(), POLL).toHaveLength(24);
    const partial = (await bubble.textContent()) ?? '';
    expect(answer.startsWith(partial) && partial.length < answer.length).toBe(true);
    // The thinking dots went with the first piece of text.
    expect(await page.locator('.chat-typing').isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'webui-voice-streaming.png') });
    release();
    await page.locator('.chat-message.assistant', { hasText: answer }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.chat-message.assistant').count()).toBe(1);
    expect(await bubble.textContent()).toBe(answer);
    expect(errors()).toEqual([]);
  });

  it('plays the pieces of a spoken reply in seq order, even when they arrive out of order', async () => {
    (stack as ModelStack).fake.script({ kind: 'reply', text: THREE_SENTENCES, chunkSize: 6, delayMs: 10 });
    const { page, wire, errors } = await openChat();
    // The body's vrm_audio (for windows that join mid-speech) is kept out: this is about tts_play alone.
    wire.drop((frame) => frame.type === 'vrm_audio');
    expect(await page.getByRole('button', { name: 'Voice' }).getAttribute('aria-pressed')).toBe('true');
    await frameIn(wire.fromPage, (frame) => frame.type === 'voice' && frame.speak === true, 'the voice frame after the hello');
    await recordEvents(page, ['app:speech-piece']);
    wire.reorder(isPiece(0), isPiece(1));
    await ask(page, 'How is the morning?');
    await frameIn(wire.fromServer, (frame) => frame.type === 'tts_play' && frame.last === true, 'the last piece', 30_000);
    const sent = wire.fromServer.filter((frame) => frame.type === 'tts_play');
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.map((frame) => frame.seq)).toEqual(sent.map((_, seq) => seq));
    const pieces = await waitForRecorded<{ utterance_id: string; seq: number; url: string }>(page, (events) => events.length >= sent.length, 30_000);
    expect(pieces.map((event) => event.detail.seq)).toEqual(sent.map((_, seq) => seq));
    expect(new Set(pieces.map((event) => event.detail.utterance_id))).toEqual(new Set([sent[0]?.utterance_id]));
    // Every piece was started by a real play() of its own audio, in seq order.
    await expect.poll(async () => (await mediaPlays(page)).length, POLL).toBe(sent.length);
    const plays = await mediaPlays(page);
    expect(plays.map((src) => new URL(src).pathname)).toEqual(sent.map((frame) => frame.url));
    expect(errors()).toEqual([]);
  });

  it('with the voice switch off plays nothing, remembers it, and tells the server after every hello', async () => {
    const { page, wire, errors } = await openChat();
    const toggle = page.getByRole('button', { name: 'Voice' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await frameIn(wire.fromPage, (frame) => frame.type === 'voice' && frame.speak === false, 'voice off sent');
    await page.screenshot({ path: join(ARTIFACTS, 'webui-voice-off.png') });

    const isHello = (frame: Frame) => frame.type === 'hello';
    const hellosBefore = wire.fromPage.filter(isHello).length;
    await page.reload();
    await expect.poll(() => toggle.getAttribute('aria-pressed'), POLL).toBe('false');
    // The reload opened a new socket: its hello is followed by the remembered choice.
    const afterNewHello = () => {
      const hello = wire.fromPage.findLastIndex(isHello);
      return wire.fromPage.filter(isHello).length > hellosBefore ? wire.fromPage[hello + 1] : undefined;
    };
    await expect.poll(afterNewHello, POLL).toEqual({ type: 'voice', speak: false });
    await recordEvents(page, ['app:speech-piece', 'app:tts-play']);
    // A piece that reaches the page anyway (sent before the server learnt the switch) stays silent: the
    // frames are handled in order, so once the marker after it shows, the piece has been handled.
    wire.inject({ type: 'tts_play', url: '/tts/vox-never.wav', audio_duration_s: 1, lipsync: null, text: 'Hidden', utterance_id: 'u-off', seq: 0, last: true });
    wire.inject({
      type: 'chat_message',
      id: 'marker',
      role: 'system',
      username: 'system',
      text: 'marker',
      timestamp: new Date().toISOString(),
      interface_path: 'webui/x',
    });
    await page.locator('.chat-message', { hasText: 'marker' }).waitFor();
    expect(await mediaPlays(page)).toEqual([]);
    expect(await recorded(page)).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('stops at tts_stop, drops the queued pieces and answers tts_heard', async () => {
    const { server, fake } = stack as ModelStack;
    fake.script({ kind: 'reply', text: THREE_SENTENCES, chunkSize: 6, delayMs: 10 });
    const { page, wire, errors } = await openChat();
    await recordEvents(page, ['app:speech-piece']);
    await ask(page, 'How is the morning?');
    const [first] = await waitForRecorded<{ utterance_id: string; seq: number }>(page, (events) => events.length >= 1, 30_000);
    const history = wire.fromServer.find((frame) => frame.type === 'chat_history');
    server.test.services.webChat.interrupt(String(history?.interface_path));
    const heard = await frameIn(wire.fromPage, (frame) => frame.type === 'tts_heard', 'tts_heard');
    expect(heard).toEqual({ type: 'tts_heard', utterance_id: first?.detail.utterance_id, seq: expect.any(Number), offset_s: expect.any(Number) });
    expect(wire.fromServer.find((frame) => frame.type === 'tts_stop')).toEqual({ type: 'tts_stop', utterance_id: first?.detail.utterance_id });
    expect(await allMediaPaused(page)).toBe(true);
    expect(errors()).toEqual([]);
  });

  it("stops the body's own clip when the body clears it before its end (stream mode's skip)", async () => {
    const { page, errors } = await openChat();
    const { services } = (stack as ModelStack).server.test;
    const spoken = await services.audio.vox.speak({
      text: 'This is a long answer for the stream, and the streamer skips it long before it has been said to the end.',
      interfacePath: 'nobody/1',
    });
    expect(spoken.status).toBe('success');
    await expect.poll(async () => (await mediaPlays(page)).some((source) => source.endsWith(spoken.url ?? '-')), POLL).toBe(true);
    // What `POST /api/stream/skip` does to the body: its audio is cleared at once.
    services.body.clearAudio();
    await expect.poll(() => allMediaPaused(page), POLL).toBe(true);
    const times = await page.evaluate(
      (url) =>
        (globalThis as unknown as { __media: Array<{ src: string; currentTime: number }> }).__media
          .filter((media) => media.src.endsWith(url))
          .map((media) => media.currentTime),
      spoken.url ?? '-',
    );
    // Stopped where the clear found it, not played out to its end.
    expect(spoken.audio_duration_s).toBeGreaterThan(4);
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) expect(time).toBeLessThan((spoken.audio_duration_s ?? 0) - 1);
    expect(errors()).toEqual([]);
  });
});
