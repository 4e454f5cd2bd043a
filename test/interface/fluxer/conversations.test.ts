import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../../src/body/clock.ts';
import { shippedRoots } from '../../helpers/component-roots.ts';
import { type DiscordChannel, type DiscordLikeServer, type DiscordUser, type RestRequest, startDiscordLikeServer } from '../../helpers/discord-like-server.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';
import { type FakeOpenAi, gate, startFakeOpenAi, lastPrompt } from '../../helpers/openai-server.ts';
import { useTestApp } from '../../helpers/services.ts';

const actions = (...list: Array<{ type: string; payload: Record<string, unknown> }>) => JSON.stringify({ actions: list });

describe('the Fluxer interface, against a local Discord-like server', () => {
  let server: DiscordLikeServer;
  let model: FakeOpenAi;
  let sam: DiscordUser;
  let general: DiscordChannel;
  let log: string[];
  beforeEach(async () => {
    server = await startDiscordLikeServer({ botName: 'Anima' });
    model = await startFakeOpenAi();
    sam = server.user('Sam');
    const guild = server.guild('Home', ['general']);
    general = guild.channels[0] as DiscordChannel;
    log = [];
  });
  afterEach(async () => {
    await server.close();
    await model.close();
  });
  const test = useTestApp({ startInTest: true, componentRoots: { interface: shippedRoots.interface, cortex: shippedRoots.cortex } });

  /** The token last, so the interface loads once the server is named. */
  const fluxer = () => ({ FLUXER_API_BASE_URL: server.apiBaseUrl, FLUXER_API_VERSION: '1', FLUXER_BOT_TOKEN: server.token });
  const launch = async (environment: Record<string, string> = fluxer(), clock?: Clock) => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => log.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    await test.start({
      ...(clock ? { clock } : {}),
      environment: { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', ...environment },
      logLevel: 'info',
      logDestination: destination,
    });
    if (environment.FLUXER_BOT_TOKEN) await connected();
  };
  const status = async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/components' });
    return (response.json().interfaces as Array<{ name: string; status: string; reason: string | null; connection?: { state: string; detail?: string } }>).find(
      (entry) => entry.name === 'fluxer',
    );
  };
  const connected = () => vi.waitFor(async () => expect((await status())?.connection?.state).toBe('connected'), { timeout: 10_000, interval: 20 });
  /** The bot's message (made or to come) with this content in a channel. */
  const posted = (channel: DiscordChannel, content: string) =>
    server.waitFor(
      (request) =>
        request.method === 'POST' && request.path === `/channels/${channel.id}/messages` && request.json?.content === content && request.status === 200,
    );
  const posts = (channel: DiscordChannel, content: string) =>
    server.requests.filter((request: RestRequest) => request.path === `/channels/${channel.id}/messages` && request.json?.content === content);
  const refusedWith429 = () => server.requests.filter((request) => request.status === 429).length;
  const history = async (path: string) => (await test.harness.services.history.chat.load(path)).map((item) => [item.sender_id, item.text]);

  it('answers a mention in a guild channel with a reply, under fluxer/<guild_id>/<channel_id>, and shows it is typing when an answer takes long', async () => {
    const clock = new ManualClock();
    await launch(fluxer(), clock);
    const answer = gate();
    model.script({ kind: 'reply', text: 'Hello Sam!', hold: { at: 0, release: answer.release } });
    const asked = server.say(general, sam, `<@${server.bot.id}> hi there`);
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    // The model has not answered within a second on the clock: the channel shows "typing…", then the answer comes.
    clock.advance(1000);
    await server.waitFor((request) => request.path === `/channels/${general.id}/typing`);
    answer.open();
    const reply = await posted(general, 'Hello Sam!');
    expect(reply.json).toMatchObject({ message_reference: { message_id: asked.id } });
    expect(reply.authorization).toBe(`Bot ${server.token}`);
    expect(reply.version).toBe(1);
    expect(lastPrompt(model)).toBe('Sam: hi there');
    const typing = server.requests.find((request) => request.path === `/channels/${general.id}/typing`);
    expect(typing && server.requests.indexOf(typing)).toBeLessThan(server.requests.indexOf(reply));
    await vi.waitFor(async () =>
      expect(await history(`fluxer/${general.guild_id}/${general.id}`)).toEqual([
        [sam.id, 'hi there'],
        ['self', 'Hello Sam!'],
      ]),
    );
  });

  it('lets a guild channel sleep until addressed, and answers in a thread as a conversation of its own', async () => {
    await launch();
    const thread = server.thread(general, 'plans');
    model.script({ kind: 'reply', text: 'In the thread.' });
    server.say(thread, sam, 'just chatting among ourselves');
    server.say(thread, sam, `<@${server.bot.id}> are you there?`);
    await posted(thread, 'In the thread.');
    expect(model.requests).toHaveLength(1);
    expect(lastPrompt(model)).toBe('Sam: are you there?');
    await vi.waitFor(async () =>
      expect(await history(`fluxer/${general.guild_id}/${thread.id}`)).toEqual([
        [sam.id, 'just chatting among ourselves'],
        [sam.id, 'are you there?'],
        ['self', 'In the thread.'],
      ]),
    );
  });

  it('splits a long answer at 2000 characters between sentences, and waits out a 429 for its retry_after on the clock', async () => {
    const clock = new ManualClock();
    await launch(fluxer(), clock);
    const dm = server.dm(sam);
    const sentence = 'This sentence is one of many in a long answer. ';
    const long = sentence.repeat(90).trim();
    server.fail('POST', new RegExp(`^/channels/${dm.id}/messages$`), { retryAfter: 0.2 });
    model.script({ kind: 'reply', text: long, chunkSize: 500 });
    server.say(dm, sam, 'tell me everything');
    // Refused once: the retry waits the 200 ms it was told, on the clock, and sends nothing meanwhile.
    await vi.waitFor(() => expect([refusedWith429(), clock.nextDue()]).toEqual([1, clock.now() + 200]));
    clock.advance(200);
    await vi.waitFor(() =>
      expect(
        server
          .messages(dm.id)
          .filter((message) => message.author.id === server.bot.id)
          .map((message) => message.content)
          .join(' '),
      ).toBe(long),
    );
    const parts = server.messages(dm.id).filter((message) => message.author.id === server.bot.id);
    expect(parts.length).toBe(3);
    for (const part of parts) {
      expect(part.content.length).toBeLessThanOrEqual(2000);
      expect(part.content.endsWith('answer.')).toBe(true);
    }
    expect(refusedWith429()).toBe(1);
    expect(log.some((line) => line.includes('Fluxer rate limit'))).toBe(true);
  });

  it('answers a direct message under fluxer/dm/<channel_id>', async () => {
    await launch();
    const dm = server.dm(sam);
    model.script({ kind: 'reply', text: 'Just us here.' });
    server.say(dm, sam, 'hello?');
    const reply = await posted(dm, 'Just us here.');
    expect(reply.json?.message_reference).toBeUndefined();
    await vi.waitFor(async () =>
      expect(await history(`fluxer/dm/${dm.id}`)).toEqual([
        [sam.id, 'hello?'],
        ['self', 'Just us here.'],
      ]),
    );
  });

  it('reads an attachment as a line naming it, and sends a file of the shared folder with send_file_fluxer, never one outside the allowed folders', async () => {
    await launch();
    const shared = join(test.harness.cwd, 'backups', 'fluxer', 'files');
    await mkdir(shared, { recursive: true });
    await writeFile(join(shared, 'notes.txt'), 'the notes');
    const dm = server.dm(sam);
    const path = `fluxer/dm/${dm.id}`;
    model.script({
      kind: 'reply',
      text: actions(
        { type: 'send_file_fluxer', payload: { file_path: '/etc/passwd', interface_path: path } },
        { type: 'send_file_fluxer', payload: { file_path: '../../package.json', interface_path: path } },
        { type: 'send_file_fluxer', payload: { file_path: 'notes.txt', interface_path: path, caption: 'My notes.' } },
      ),
    });
    const said = server.say(dm, sam, 'here is mine', { attachments: [{ filename: 'cat.png', bytes: Buffer.from('png'), contentType: 'image/png' }] });
    const upload = await server.waitFor((request) => request.path === `/channels/${dm.id}/messages` && request.files.length > 0);
    expect(lastPrompt(model)).toBe(`Sam: here is mine\n[file: cat.png] ${said.attachments[0]?.url}`);
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({ content: 'My notes.' });
    expect(upload.files).toEqual([expect.objectContaining({ filename: 'notes.txt', bytes: Buffer.from('the notes') })]);
    expect(server.requests.filter((request) => request.files.length > 0)).toHaveLength(1);
    expect(log.filter((line) => line.includes('action skipped'))).toHaveLength(2);
  });

  it('resumes a gateway dropped mid-conversation: what was said meanwhile is answered once, nothing is lost', async () => {
    await launch();
    const dm = server.dm(sam);
    model.script({ kind: 'reply', text: 'First answer.', delayMs: 200 }, { kind: 'reply', text: 'Second answer.' }, { kind: 'reply', text: 'Third answer.' });
    server.say(dm, sam, 'one');
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    server.drop();
    server.say(dm, sam, 'two');
    await posted(dm, 'First answer.');
    await posted(dm, 'Second answer.');
    await server.waitForFrame(6);
    server.say(dm, sam, 'three');
    await posted(dm, 'Third answer.');
    expect(model.requests).toHaveLength(3);
    expect([posts(dm, 'First answer.'), posts(dm, 'Second answer.'), posts(dm, 'Third answer.')].map((list) => list.length)).toEqual([1, 1, 1]);
    expect(server.identifies).toBe(1);
    expect((await history(`fluxer/dm/${dm.id}`)).filter(([sender]) => sender === sam.id)).toEqual([
      [sam.id, 'one'],
      [sam.id, 'two'],
      [sam.id, 'three'],
    ]);
  });

  it('is FAILED without a token, connects once one is set, shows the connection on GET /api/components, and reconnects on a new token without a restart', async () => {
    await launch({});
    expect(await status()).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/FLUXER_BOT_TOKEN/) });
    const set = (key: string, value: string) => test.app.inject({ method: 'POST', url: '/api/config', payload: { key, value } });
    for (const [key, value] of Object.entries(fluxer())) expect((await set(key, value)).statusCode).toBe(200);
    await connected();
    expect(await status()).toMatchObject({ status: 'loaded', connection: { state: 'connected', detail: 'as Anima' } });

    const fresh = server.rotateToken();
    expect((await set('FLUXER_BOT_TOKEN', fresh)).statusCode).toBe(200);
    await server.waitFor((request) => request.path === '/gateway/bot' && request.authorization === `Bot ${fresh}`);
    await connected();
    const dm = server.dm(sam);
    model.script({ kind: 'reply', text: 'Same bot, new token.' });
    server.say(dm, sam, 'still you?');
    expect((await posted(dm, 'Same bot, new token.')).authorization).toBe(`Bot ${fresh}`);
    expect(server.identifies).toBe(2);
    expect(test.harness.restarts()).toBe(0);
  });
});
