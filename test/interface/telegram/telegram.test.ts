import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ffmpeg from 'fluent-ffmpeg';
import type { Chat, Message, User } from 'grammy/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { type FakeOpenAi, startFakeOpenAi, lastPrompt } from '../../helpers/openai-server.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { useTestApp } from '../../helpers/services.ts';
import { type BotApiCall, type FakeBotApi, startFakeBotApi } from '../../helpers/telegram-bot-api.ts';
import { listeningFor, recordedVoiceNote } from '../../helpers/voice-notes.ts';

const TRAINER_ID = 1001;

const actions = (...list: Array<{ type: string; payload: Record<string, unknown> }>) => JSON.stringify({ actions: list });
const textOf = (call: BotApiCall) => String(call.params.text);

async function probe(bytes: Buffer): Promise<ffmpeg.FfprobeData> {
  const directory = await mkdtemp(join(tmpdir(), 'anima-probe-'));
  const path = join(directory, 'voice.ogg');
  await writeFile(path, bytes);
  try {
    return await new Promise((resolve, reject) => ffmpeg.ffprobe(path, (error, data) => (error ? reject(error) : resolve(data))));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('the Telegram interface, against a local Bot API server', () => {
  let api: FakeBotApi;
  let model: FakeOpenAi;
  let sam: User;
  let trainer: User;
  let log: string[];
  beforeEach(async () => {
    api = await startFakeBotApi();
    model = await startFakeOpenAi();
    sam = api.user(2002, 'Sam');
    trainer = api.user(TRAINER_ID, 'Olga');
    log = [];
  });
  afterEach(async () => {
    await api.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const telegram = () => ({
    TELEGRAM_BOT_TOKEN: api.token,
    TELEGRAM_TRAINER_ID: String(TRAINER_ID),
    TELEGRAM_API_BASE_URL: api.apiRoot,
  });
  /** Anima with the openai engine on the local model server; Telegram configured unless told otherwise. */
  const launch = async (environment: Record<string, string> = telegram(), clock?: ManualClock) => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => log.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    await test.start({
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment },
      logLevel: 'info',
      logDestination: destination,
      ...(clock ? { clock } : {}),
    });
    if (environment.TELEGRAM_BOT_TOKEN) await api.waitFor('getUpdates');
  };
  /** The first call of `method` that matches and succeeded. */
  const sent = (method: string, match: (call: BotApiCall) => boolean = () => true) => api.waitFor(method, (call) => call.result !== undefined && match(call));
  const succeeded = (method: string) => api.calls.filter((call) => call.method === method && call.result !== undefined);
  const reply = (text: string) => sent('sendMessage', (call) => textOf(call) === text);
  const history = async (path: string) => (await test.harness.services.history.chat.load(path)).map((item) => [item.sender_id, item.text]);

  it('answers in a private chat, keeps the conversation under telegram_bot/<chat_id>, and shows it is typing when an answer takes long', async () => {
    const clock = new ManualClock();
    await launch(telegram(), clock);
    const changes: Array<[string, string | null]> = [];
    test.harness.services.body.onAnimationStateChanged((change) => changes.push([change.state, change.source]));
    model.script({ kind: 'reply', text: 'Hello Sam!' });
    const chat = api.privateChat(sam);
    api.say({ chat, from: sam, text: 'hi' });

    expect((await reply('Hello Sam!')).params).toMatchObject({ chat_id: chat.id });
    expect(lastPrompt(model)).toBe('Sam: hi');
    await expect
      .poll(() => history(`telegram_bot/${chat.id}`))
      .toEqual([
        [String(sam.id), 'hi'],
        ['self', 'Hello Sam!'],
      ]);
    expect(changes).toContainEqual(['think', 'telegram_bot']);

    model.script({ kind: 'hang' });
    api.say({ chat, from: sam, text: 'a hard question' });
    await vi.waitFor(() => expect(model.requests).toHaveLength(2));
    clock.advance(1000);
    expect((await sent('sendChatAction')).params).toMatchObject({ chat_id: chat.id, action: 'typing' });
  });

  it('in a group, saves but does not answer what is not addressed to it, and answers a mention or a reply in its thread', async () => {
    await launch();
    const group = api.group(-1001234, 'Friends');
    api.say({ chat: group, from: sam, text: 'anyone around?' });
    model.script({ kind: 'reply', text: 'I am here.' }, { kind: 'reply', text: 'Still here.' });
    const mention = api.say({ chat: group, from: sam, text: `@${api.bot.username} are you there?` });

    const answer = await reply('I am here.');
    expect(answer.params).toMatchObject({ chat_id: group.id, reply_parameters: { message_id: mention.message_id } });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.body.messages?.slice(-2).map((turn) => turn.content)).toEqual([
      'Sam: anyone around?',
      `Sam: @${api.bot.username} are you there?`,
    ]);
    api.say({ chat: group, from: sam, text: 'good', reply_to_message: answer.result as NonNullable<Message['reply_to_message']> });
    await reply('Still here.');
    expect(succeeded('sendMessage')).toHaveLength(2);

    const forum = api.group(-1005555, 'Forum', { forum: true });
    model.script({ kind: 'reply', text: 'In the topic.' });
    api.say({ chat: forum, from: sam, text: `@${api.bot.username} hello`, message_thread_id: 42, is_topic_message: true });
    expect((await reply('In the topic.')).params).toMatchObject({ chat_id: forum.id, message_thread_id: 42 });
    await expect.poll(() => history(`telegram_bot/${forum.id}/42`)).toHaveLength(2);
  });

  it('lets the trainer put a chat to sleep and wake it, and refuses those commands to anyone else', async () => {
    await launch();
    const group = api.group(-1007777, 'Team');
    api.say({ chat: group, from: sam, text: '/wake' });
    await reply('Only an operator (TRAINER_IDS) can change my attention in this chat.');

    api.say({ chat: group, from: trainer, text: `/wake@${api.bot.username}` });
    await reply('I am awake and answering every message here.');
    model.script({ kind: 'reply', text: 'Answering everyone now.' });
    api.say({ chat: group, from: sam, text: 'hello all' });
    await reply('Answering everyone now.');

    api.say({ chat: group, from: trainer, text: '/sleep' });
    await reply('Going to sleep: I will answer only mentions and replies here.');
    api.say({ chat: group, from: sam, text: 'nobody hears this' });
    api.say({ chat: group, from: trainer, text: '/sleep@another_bot' });
    api.say({ chat: group, from: sam, text: '/status' });
    await reply('Status: asleep (answering only mentions and replies).');
    expect(model.requests).toHaveLength(1);
  });

  it('sends inline buttons, acknowledges a press and hands its data to the model', async () => {
    await launch();
    const chat = api.privateChat(sam);
    model.script(
      {
        kind: 'reply',
        text: actions({
          type: 'message_telegram_bot',
          payload: { text: 'Tea or coffee?', buttons: [[{ text: 'Tea', data: 'tea please' }, { text: 'Coffee' }]] },
        }),
      },
      { kind: 'reply', text: 'Tea it is.' },
    );
    api.say({ chat, from: sam, text: 'something to drink?' });
    const question = await reply('Tea or coffee?');
    expect(question.params.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Tea', callback_data: 'tea please' },
          { text: 'Coffee', callback_data: 'Coffee' },
        ],
      ],
    });
    const press = api.press(sam, question.result as Message, 'tea please');
    await reply('Tea it is.');
    expect(api.calls.find((call) => call.method === 'answerCallbackQuery')?.params).toMatchObject({ callback_query_id: press.id });
    expect(lastPrompt(model)).toBe('Sam: tea please');
  });

  it('reads a picture as a line naming it, and sends a picture by URL with its caption', async () => {
    await launch();
    const chat = api.privateChat(sam);
    const photo = api.addFile(Buffer.from('jpeg'), 'photos');
    model.script({
      kind: 'reply',
      text: actions({
        type: 'send_media_telegram_bot',
        payload: { file_url: 'https://example.com/cat.jpg', interface_path: `telegram_bot/${chat.id}`, caption: 'Mine.' },
      }),
    });
    api.say({ chat, from: sam, caption: 'my cat', photo: [{ file_id: photo.file_id, file_unique_id: photo.file_unique_id, width: 800, height: 600 }] });
    const sentPhoto = await sent('sendPhoto');
    expect(lastPrompt(model)).toBe('Sam: [photo] my cat');
    expect(sentPhoto.params).toMatchObject({ chat_id: chat.id, photo: 'https://example.com/cat.jpg', caption: 'Mine.' });
  });

  it('splits a long answer on sentence boundaries under 4096 characters', async () => {
    await launch();
    const sentence = 'This sentence is part of a very long answer. ';
    const long = sentence.repeat(120).trim();
    model.script({ kind: 'reply', text: long, chunkSize: 500 });
    api.say({ chat: api.privateChat(sam), from: sam, text: 'tell me everything' });
    await expect.poll(() => succeeded('sendMessage')).toHaveLength(2);
    const parts = succeeded('sendMessage').map(textOf);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    expect(parts[0]?.endsWith('answer.')).toBe(true);
    expect(parts.join(' ')).toBe(long);
  });

  it('waits out a 429 with its retry_after on the clock and sends again; a chat that blocked the bot is logged and the bot goes on', async () => {
    const clock = new ManualClock();
    await launch(telegram(), clock);
    const chat = api.privateChat(sam);
    api.fail('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    model.script({ kind: 'reply', text: 'Eventually.' }, { kind: 'reply', text: 'Lost.' }, { kind: 'reply', text: 'Back again.' });
    api.say({ chat, from: sam, text: 'hello?' });
    // Refused once: the retry waits the second it was told, on the clock.
    await vi.waitFor(() => expect([log.some((line) => line.includes('Telegram flood control')), clock.nextDue()]).toEqual([true, clock.now() + 1000]));
    clock.advance(1000);
    await reply('Eventually.');
    expect(api.calls.filter((call) => call.method === 'sendMessage').map((call) => [textOf(call), call.result !== undefined])).toEqual([
      ['Eventually.', false],
      ['Eventually.', true],
    ]);
    expect(log.some((line) => line.includes('Telegram flood control'))).toBe(true);

    api.fail('sendMessage', { error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    api.say({ chat, from: sam, text: 'are you there?' });
    await api.waitFor('sendMessage', (call) => textOf(call) === 'Lost.');
    api.say({ chat, from: sam, text: 'and now?' });
    await reply('Back again.');
    const blocked = log.find((line) => line.includes('Telegram does not deliver to this chat'));
    expect(JSON.parse(blocked ?? '{}')).toMatchObject({ chat_id: chat.id, description: 'Forbidden: bot was blocked by the user' });
    // Delivered nowhere, so not kept as said.
    await expect.poll(() => history(`telegram_bot/${chat.id}`)).toContainEqual(['self', 'Back again.']);
    expect((await history(`telegram_bot/${chat.id}`)).map(([, text]) => text)).not.toContain('Lost.');
  });

  it('is FAILED with the missing variables until configured, then connects; a new token reconnects it without a restart', async () => {
    await launch({});
    const status = async () => {
      const response = await test.app.inject({ method: 'GET', url: '/api/components' });
      return (response.json().interfaces as Array<{ name: string; status: string; reason: string | null; connection: unknown }>).find(
        (entry) => entry.name === 'telegram',
      );
    };
    expect(await status()).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/TELEGRAM_BOT_TOKEN.*TELEGRAM_TRAINER_ID/) });
    const set = (key: string, value: string) => test.app.inject({ method: 'POST', url: '/api/config', payload: { key, value } });
    for (const [key, value] of Object.entries(telegram())) expect((await set(key, value)).statusCode).toBe(200);
    await api.waitFor('getUpdates');
    expect(await status()).toMatchObject({ status: 'loaded', connection: { state: 'connected', detail: `@${api.bot.username}` } });

    const fresh = api.revoke();
    expect((await set('TELEGRAM_BOT_TOKEN', fresh)).statusCode).toBe(200);
    await api.waitFor('getUpdates', (call) => call.token === fresh);
    model.script({ kind: 'reply', text: 'Same bot, new token.' });
    api.say({ chat: api.privateChat(sam), from: sam, text: 'still you?' });
    await reply('Same bot, new token.');
    expect(await status()).toMatchObject({ status: 'loaded', connection: { state: 'connected' } });
    expect(test.harness.restarts()).toBe(0);
  });

  it('hears a voice message through Auris and answers with a voice note (OGG/Opus)', async () => {
    await launch({
      ...telegram(),
      ACTIVE_VOX_ENGINE: 'local',
      ...listeningFor(['good morning', 'what time is it']),
    });
    const file = api.addFile(await recordedVoiceNote(test.harness.services, 'Good morning!'), 'voice');
    const chat: Chat = api.privateChat(sam);
    model.script({ kind: 'reply', text: 'Good morning to you.' });
    api.say({ chat, from: sam, voice: { file_id: file.file_id, file_unique_id: file.file_unique_id, duration: 1, mime_type: 'audio/ogg' } });

    const answer = await sent('sendVoice');
    expect(lastPrompt(model)).toBe('Sam: good morning');
    const uploaded = answer.files.voice?.bytes ?? Buffer.alloc(0);
    const info = await probe(uploaded);
    expect(info.format.format_name).toBe('ogg');
    expect(info.streams[0]).toMatchObject({ codec_name: 'opus', channels: 1 });
    expect(api.calls.filter((call) => call.method === 'sendMessage')).toEqual([]);
    await expect
      .poll(() => history(`telegram_bot/${chat.id}`))
      .toEqual([
        [String(sam.id), 'good morning'],
        ['self', 'Good morning to you.'],
      ]);
    // Speech synthesis, recognition and two encodings: seconds on a busy machine.
  }, 90_000);
});
