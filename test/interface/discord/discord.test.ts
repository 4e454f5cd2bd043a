import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/body/clock.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { type DiscordLikeServer, type DiscordUser, type RestRequest, startDiscordLikeServer } from '../../helpers/discord-like-server.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, startFakeOpenAi, lastPrompt } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';
import { listeningFor, recordedVoiceNote } from '../../helpers/voice-notes.ts';

/** Discord's flag of a voice message (the client's record button). */
const IS_VOICE_MESSAGE = 1 << 13;

const contentOf = (request: RestRequest) => request.json?.content;
const isPost = (request: RestRequest) => request.method === 'POST' && /^\/channels\/\d+\/messages$/.test(request.path);

describe('the Discord interface (discord.js), against a local Discord API v10 server', () => {
  let discord: DiscordLikeServer;
  let model: FakeOpenAi;
  let sam: DiscordUser;
  let olga: DiscordUser;
  let log: string[];
  beforeEach(async () => {
    discord = await startDiscordLikeServer();
    model = await startFakeOpenAi();
    sam = discord.user('sam');
    olga = discord.user('olga');
    log = [];
  });
  afterEach(async () => {
    await discord.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  const settings = () => ({ DISCORD_BOT_TOKEN: discord.token, DISCORD_API_BASE_URL: discord.apiBaseUrl, TRAINER_IDS: `discord:${olga.id}` });
  /** Anima with the openai engine on the local model server, Discord configured unless told otherwise; resolves once the bot identified. */
  const launch = async (environment: Record<string, string> = settings(), clock?: Clock) => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => log.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    await test.start({
      ...(clock ? { clock } : {}),
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment },
      logLevel: 'info',
      logDestination: destination,
    });
    if (environment.DISCORD_BOT_TOKEN) await expect.poll(connection).toMatchObject({ state: 'connected' });
  };
  const connection = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; connection: unknown }>).find((entry) => entry.name === 'discord')?.connection;
  };
  const posted = (match: (request: RestRequest) => boolean = () => true) =>
    discord.waitFor((request) => isPost(request) && request.status === 200 && match(request));
  const reply = (text: string) => posted((request) => contentOf(request) === text);
  const succeeded = () => discord.requests.filter((request) => isPost(request) && request.status === 200);
  const history = async (path: string) => (await test.harness.services.history.chat.load(path)).map((item) => [item.sender_id, item.text]);

  it('in a guild channel, keeps but does not answer what is not addressed to it, and answers a mention (replying to it) or a reply to itself', async () => {
    await launch();
    const guild = discord.guild('Friends', ['general']);
    const general = guild.channels[0];
    if (!general) throw new Error('no channel');
    discord.say(general, sam, 'anyone around?');
    model.script({ kind: 'reply', text: 'I am here.' }, { kind: 'reply', text: 'Still here.' });
    const mention = discord.say(general, sam, `<@${discord.bot.id}> are you there?`);

    const answer = await reply('I am here.');
    expect(answer.path).toBe(`/channels/${general.id}/messages`);
    expect(answer.version).toBe(10);
    expect(answer.json?.message_reference).toMatchObject({ message_id: mention.id });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.body.messages?.slice(-2).map((turn) => turn.content)).toEqual(['sam: anyone around?', 'sam: @Anima are you there?']);

    const own = discord.messages(general.id).find((message) => message.content === 'I am here.');
    if (!own) throw new Error('the answer is not in the channel');
    discord.say(general, sam, 'good', { replyTo: own });
    await reply('Still here.');
    expect(succeeded()).toHaveLength(2);
    await expect.poll(() => history(`discord/${guild.id}/${general.id}`)).toHaveLength(5);

    const thread = discord.thread(general, 'plans');
    model.script({ kind: 'reply', text: 'In the thread.' });
    discord.say(thread, sam, `<@${discord.bot.id}> hello`);
    expect((await reply('In the thread.')).path).toBe(`/channels/${thread.id}/messages`);
    await expect.poll(() => history(`discord/${guild.id}/${thread.id}`)).toHaveLength(2);
  });

  it('answers a DM under discord/dm/<channel_id>, shows it is typing while the model works, and lets only a trainer wake a channel', async () => {
    const clock = new ManualClock();
    await launch(settings(), clock);
    const changes: Array<[string, string | null]> = [];
    test.harness.services.body.onAnimationStateChanged((change) => changes.push([change.state, change.source]));
    const dm = discord.dm(sam);
    model.script({ kind: 'reply', text: 'Hello Sam!' });
    discord.say(dm, sam, 'hi');
    expect((await reply('Hello Sam!')).json?.message_reference).toBeUndefined();
    expect(lastPrompt(model)).toBe('sam: hi');
    await expect
      .poll(() => history(`discord/dm/${dm.id}`))
      .toEqual([
        [sam.id, 'hi'],
        ['self', 'Hello Sam!'],
      ]);
    expect(changes).toContainEqual(['think', 'discord']);

    model.script({ kind: 'hang' });
    discord.say(dm, sam, 'a hard question');
    await expect.poll(() => model.requests.length).toBe(2);
    // No answer within a second on the clock: the DM shows "typing…".
    clock.advance(1000);
    await discord.waitFor((request) => request.method === 'POST' && request.path === `/channels/${dm.id}/typing` && request.status === 204);

    const general = discord.guild('Team', ['general']).channels[0];
    if (!general) throw new Error('no channel');
    discord.say(general, sam, '/wake');
    await reply('Only an operator (TRAINER_IDS) can change my attention in this chat.');
    discord.say(general, olga, '/wake');
    await reply('I am awake and answering every message here.');
    model.reset();
    model.script({ kind: 'reply', text: 'Answering everyone now.' });
    discord.say(general, sam, 'hello all');
    await reply('Answering everyone now.');
  });

  it('answers every message of a channel in DISCORD_CHANNELS (and its threads) without a mention', async () => {
    const guild = discord.guild('Open', ['lobby', 'quiet']);
    const [lobby, quiet] = guild.channels;
    if (!lobby || !quiet) throw new Error('no channels');
    await launch({ ...settings(), DISCORD_CHANNELS: lobby.id });
    model.script({ kind: 'reply', text: 'Welcome to the lobby.' }, { kind: 'reply', text: 'And to its thread.' });
    discord.say(quiet, sam, 'not for the bot');
    discord.say(lobby, sam, 'hello lobby');
    await reply('Welcome to the lobby.');
    discord.say(discord.thread(lobby, 'side'), sam, 'hello thread');
    await reply('And to its thread.');
    expect(model.requests).toHaveLength(2);
  });

  it('names an attachment for the model and keeps its URL, and sends a file of generated speech; never a file outside VOX_OUTPUT_DIR', async () => {
    await launch();
    const dm = discord.dm(sam);
    model.script({ kind: 'reply', text: 'Nice notes.' });
    discord.say(dm, sam, 'look at this', { attachments: [{ filename: 'notes.txt', bytes: Buffer.from('milk, eggs'), contentType: 'text/plain' }] });
    await reply('Nice notes.');
    expect(lastPrompt(model)).toBe('sam: [file: notes.txt] look at this');

    const wav = Buffer.from('RIFF fake wave');
    const { path } = await test.harness.services.audio.files.write(wav);
    const media = (file_url: string) => ({ type: 'send_media_discord', payload: { file_url, interface_path: `discord/dm/${dm.id}`, caption: 'Listen.' } });
    model.script({ kind: 'reply', text: JSON.stringify({ actions: [media('file:///etc/passwd'), media(pathToFileURL(path).href)] }) });
    discord.say(dm, sam, 'say something');
    const upload = await posted((request) => request.files.length === 1);
    expect(upload.json?.content).toBe('Listen.');
    expect(upload.files[0]?.bytes).toEqual(await readFile(path));
    const sent = discord.messages(dm.id).at(-1);
    expect(discord.download(sent?.attachments[0]?.url ?? '')).toEqual(wav);
    await expect.poll(() => log.some((line) => line.includes('/etc/passwd'))).toBe(true);
    expect(discord.requests.filter((request) => isPost(request) && request.files.length > 0)).toHaveLength(1);
  });

  it('splits a long answer on sentence boundaries under 2000 characters', async () => {
    await launch();
    const sentence = 'This sentence is part of a very long answer. ';
    const long = sentence.repeat(100).trim();
    model.script({ kind: 'reply', text: long, chunkSize: 500 });
    discord.say(discord.dm(sam), sam, 'tell me everything');
    await expect.poll(succeeded).toHaveLength(3);
    const parts = succeeded().map((request) => String(contentOf(request)));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(parts[0]?.endsWith('answer.')).toBe(true);
    expect(parts.join(' ')).toBe(long);
  });

  it('waits out a 429 for its retry_after before sending again', async () => {
    await launch();
    const dm = discord.dm(sam);
    discord.fail('POST', /^\/channels\/\d+\/messages$/, { retryAfter: 1 });
    model.script({ kind: 'reply', text: 'Eventually.' });
    discord.say(dm, sam, 'hello?');
    await reply('Eventually.');
    const attempts = discord.requests.filter(isPost);
    expect(attempts.map((request) => [contentOf(request), request.status])).toEqual([
      ['Eventually.', 429],
      ['Eventually.', 200],
    ]);
    // discord.js waits out the 429 on a timer of its own (the wall clock); the wait it reports covers retry_after.
    const limited = log.map((line) => JSON.parse(line) as { msg: string; retry_after_ms?: number }).find((line) => line.msg.startsWith('Discord rate limit'));
    expect(limited?.retry_after_ms).toBeGreaterThanOrEqual(1000);
  });

  it('is FAILED until configured, disconnected with a refused token, reports reconnecting while the gateway is out of reach, and a new token reconnects it without a restart', async () => {
    await launch({});
    const status = async () => {
      const response = await test.app.inject({ method: 'GET', url: '/api/components' });
      return (response.json().interfaces as Array<{ name: string; status: string; reason: string | null }>).find((entry) => entry.name === 'discord');
    };
    expect(await status()).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/DISCORD_BOT_TOKEN/) });
    const set = (key: string, value: string) => test.app.inject({ method: 'POST', url: '/api/config', payload: { key, value } });
    for (const [key, value] of Object.entries({ ...settings(), DISCORD_BOT_TOKEN: 'not.a.token' })) expect((await set(key, value)).statusCode).toBe(200);
    await expect.poll(connection).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/refused the token/) });
    expect((await set('DISCORD_BOT_TOKEN', discord.token)).statusCode).toBe(200);
    await expect.poll(connection).toMatchObject({ state: 'connected', detail: 'Anima' });

    discord.acceptingConnections = false;
    discord.drop();
    await expect.poll(connection).toMatchObject({ state: 'connecting', detail: 'reconnecting to the gateway' });
    const dm = discord.dm(sam);
    model.script({ kind: 'reply', text: 'Missed nothing.' });
    discord.say(dm, sam, 'said while you were away');
    discord.acceptingConnections = true;
    await reply('Missed nothing.');
    await expect.poll(connection).toMatchObject({ state: 'connected' });
    expect(discord.identifies).toBe(1);

    const fresh = discord.rotateToken();
    expect((await set('DISCORD_BOT_TOKEN', fresh)).statusCode).toBe(200);
    await expect.poll(() => discord.identifies).toBe(2);
    await expect.poll(connection).toMatchObject({ state: 'connected' });
    model.script({ kind: 'reply', text: 'Same bot, new token.' });
    discord.say(dm, sam, 'still you?');
    const answer = await reply('Same bot, new token.');
    expect(answer.authorization).toBe(`Bot ${fresh}`);
    expect(discord.liveConnections).toBe(1);
    expect(test.harness.restarts()).toBe(0);
  });

  it('resumes after a RECONNECT and identifies afresh after an invalid session, answering each message once', async () => {
    await launch();
    const dm = discord.dm(sam);
    model.script({ kind: 'reply', text: 'Resumed.' }, { kind: 'reply', text: 'A new session.' });
    discord.requestReconnect();
    discord.say(dm, sam, 'after a reconnect');
    // Sent after the RECONNECT, so it arrives replayed on the resumed session.
    await reply('Resumed.');
    await discord.waitForFrame(6);
    await expect.poll(connection).toMatchObject({ state: 'connected' });
    expect(discord.identifies).toBe(1);

    discord.invalidateSessions(false);
    await expect.poll(() => discord.identifies, { timeout: 15_000 }).toBe(2);
    discord.say(dm, sam, 'after an invalid session');
    await reply('A new session.');
    expect(model.requests).toHaveLength(2);
    expect(succeeded().map(contentOf)).toEqual(['Resumed.', 'A new session.']);
  }, 30_000);

  it('loads the history of every channel and thread of a guild, and no other conversation', async () => {
    await launch();
    const guild = discord.guild('Club', ['one', 'two']);
    const [one, two] = guild.channels;
    if (!one || !two) throw new Error('no channels');
    discord.say(one, sam, 'in one');
    discord.say(two, sam, 'in two');
    discord.say(discord.thread(one, 'sub'), sam, 'in the thread');
    discord.say(discord.guild('Elsewhere', ['x']).channels[0] ?? one, sam, 'another guild');
    discord.say(discord.dm(sam), sam, `<@${discord.bot.id}> in a DM`);
    await reply('Hello from the fake model.');
    const guildHistory = () => test.harness.services.history.chat.loadForGuild(guild.id);
    await expect.poll(async () => (await guildHistory()).map((message) => message.text)).toEqual(['in one', 'in two', 'in the thread']);
    expect((await guildHistory()).map((message) => message.interface_path)).toContain(`discord/${guild.id}/${two.id}`);
  });

  it('hears a voice message through Auris and answers with the spoken reply as an audio file', async () => {
    await launch({
      ...settings(),
      ACTIVE_VOX_ENGINE: 'local',
      ...listeningFor(['good morning', 'what time is it']),
    });
    const bytes = await recordedVoiceNote(test.harness.services, 'Good morning!');
    const dm = discord.dm(sam);
    model.script({ kind: 'reply', text: 'Good morning to you.' });
    discord.say(dm, sam, '', { attachments: [{ filename: 'voice-message.ogg', bytes, contentType: 'audio/ogg' }], flags: IS_VOICE_MESSAGE });

    const answer = await posted((request) => request.files.length === 1);
    expect(lastPrompt(model)).toBe('sam: good morning');
    expect(answer.files[0]?.filename).toMatch(/\.wav$/);
    expect(answer.files[0]?.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(discord.requests.filter((request) => isPost(request) && request.files.length === 0)).toEqual([]);
    await expect
      .poll(() => history(`discord/dm/${dm.id}`))
      .toEqual([
        [sam.id, 'good morning'],
        ['self', 'Good morning to you.'],
      ]);
    // Speech synthesis, recognition and an encoding: seconds on a busy machine.
  }, 90_000);
});
