import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { record } from '../../fixtures/components/record.ts';
import { matrixConnection, startAnimaOnMatrix, startMatrixHomeserver, type MatrixHomeserver, type RoomEvent } from '../../helpers/matrix-homeserver.ts';
import type { TestServices } from '../../helpers/services.ts';

const PASSWORD = 'correct horse battery staple';

/** The user turn of the engine's last prompt: `<name>: <text>`. */
const lastAsked = () => record.prompts.at(-1)?.at(-1)?.content;

describe('the matrix interface in rooms and threads', () => {
  let server: MatrixHomeserver;
  let anima: TestServices;
  let bot: string;
  let alice: string;
  let bob: string;
  let logs: string[];

  beforeEach(async () => {
    record.reset();
    logs = [];
    server = await startMatrixHomeserver();
    bot = server.registerUser('anima', { password: PASSWORD, displayName: 'Anima' });
    alice = server.registerUser('alice');
    bob = server.registerUser('bob');
  });
  afterEach(async () => {
    await anima?.close();
    await server.close();
  });

  const start = async (environment: Record<string, string> = {}) => {
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void logs.push(String(chunk))) });
    anima = await startAnimaOnMatrix(server, { MATRIX_USER_ID: bot, MATRIX_PASSWORD: PASSWORD, ...environment }, sink);
    await matrixConnection(anima, 'connected');
  };
  /** A room of alice's (and `others`) that the interface joined on alice's invitation. */
  const room = async (others: string[] = [], options: { encrypted?: boolean } = {}) => {
    const id = server.createRoom(alice, options);
    for (const other of others) {
      server.invite(id, alice, other);
      server.join(id, other);
    }
    server.invite(id, alice, bot);
    await server.until(() => (server.membership(id, bot) === 'join' ? true : undefined), `${bot} joining ${id}`);
    return id;
  };
  /** Sends as `sender` and resolves with the interface's next event in that room. */
  const exchange = async (roomId: string, sender: string, content: Record<string, unknown>): Promise<{ sent: string; reply: RoomEvent }> => {
    const at = server.streamPosition;
    const sent = server.send(roomId, sender, content);
    return { sent, reply: await server.nextEvent(roomId, bot, at, (event) => event.type === 'm.room.message') };
  };
  /** Once the answer is complete (the interface stops typing), its history is written too. */
  const settled = (roomId: string) =>
    server.until(() => (server.typing.filter((typing) => typing.roomId === roomId).at(-1)?.typing === false ? true : undefined), 'typing off');
  const text = (body: string, extra: Record<string, unknown> = {}) => ({ msgtype: 'm.text', body, ...extra });

  it('answers in a room of two: the reply, a read receipt, typing while it answers, and the history under matrix/<room_id>', async () => {
    await start();
    const id = await room();
    const { sent, reply } = await exchange(id, alice, text('hello there'));
    expect(reply.content).toEqual({ msgtype: 'm.text', body: 're: alice: hello there', 'm.mentions': {} });
    expect(server.receipts).toContainEqual({ roomId: id, userId: bot, receiptType: 'm.read', eventId: sent });
    await settled(id);
    expect(server.typing.filter((typing) => typing.roomId === id).map((typing) => typing.typing)).toEqual([true, false]);
    const history = await anima.services.history.chat.load(`matrix/${id}`);
    expect(history.map((message) => [message.role, message.sender_id, message.text])).toEqual([
      ['user', alice, 'hello there'],
      ['assistant', 'self', 're: alice: hello there'],
    ]);
  });

  it('keeps a group room asleep: a message without a mention is read but not answered; a mention or a reply to it is, as a reply', async () => {
    await start();
    const id = await room([bob]);
    const quiet = server.send(id, bob, text('talking among ourselves'));
    const { sent, reply } = await exchange(id, alice, text('Anima, are you there?', { 'm.mentions': { user_ids: [bot] } }));
    expect(record.prompts).toHaveLength(1);
    expect(lastAsked()).toBe('alice: Anima, are you there?');
    expect(reply.content['m.relates_to']).toEqual({ 'm.in_reply_to': { event_id: sent } });
    expect(server.receipts.map((receipt) => receipt.eventId)).toContain(quiet);

    // A reply to the interface's message needs no mention, and the quoted fallback is not part of the text.
    const answered = await exchange(
      id,
      bob,
      text(`> <${bot}> re: alice: Anima, are you there?\n\nand me?`, { 'm.relates_to': { 'm.in_reply_to': { event_id: reply.event_id } } }),
    );
    expect(lastAsked()).toBe('bob: and me?');
    expect(answered.reply.content.body).toBe('re: bob: and me?');
    // An older client's mention: the display name in the text.
    await exchange(id, bob, text('thanks anima!'));
    expect(record.prompts).toHaveLength(3);
  });

  it('answers in a thread, into the thread: matrix/<room_id>/<thread_root_event_id>', async () => {
    await start();
    const id = await room();
    const { sent: root } = await exchange(id, alice, text('a new topic'));
    const thread = { 'm.relates_to': { rel_type: 'm.thread', event_id: root, is_falling_back: true, 'm.in_reply_to': { event_id: root } } };
    const { sent, reply } = await exchange(id, alice, text('in the thread', thread));
    expect(reply.content['m.relates_to']).toEqual({ rel_type: 'm.thread', event_id: root, is_falling_back: true, 'm.in_reply_to': { event_id: sent } });
    await settled(id);
    const history = await anima.services.history.chat.load(`matrix/${id}/${root}`);
    expect(history.map((message) => message.text)).toEqual(['in the thread', 're: alice: in the thread']);
  });

  it('lets only a trainer (TRAINER_IDS) wake or put to sleep a room: /wake and /sleep', async () => {
    await start({ TRAINER_IDS: `matrix:${alice}` });
    const id = await room([bob]);
    expect((await exchange(id, bob, text('/wake'))).reply.content.body).toMatch(/^Only an operator/);
    expect((await exchange(id, alice, text('/wake'))).reply.content.body).toMatch(/^I am awake/);
    expect((await exchange(id, bob, text('anyone there?'))).reply.content.body).toBe('re: bob: anyone there?');
    expect((await exchange(id, alice, text('/sleep'))).reply.content.body).toMatch(/^Going to sleep/);
    server.send(id, bob, text('still there?'));
    await exchange(id, bob, text('@anima:anima.test still there?'));
    expect(record.prompts.map((prompt) => prompt.at(-1)?.content)).toEqual(['bob: anyone there?', 'bob: @anima:anima.test still there?']);
  });

  it('sends again after a 429 M_LIMIT_EXCEEDED, when retry_after_ms says', async () => {
    await start();
    const id = await room();
    server.failNext('PUT', /\/send\/m\.room\.message\//, { status: 429, errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retryAfterMs: 200 });
    const { reply } = await exchange(id, alice, text('hi'));
    expect(reply.content.body).toBe('re: alice: hi');
    const sends = server.requests.filter((request) => request.method === 'PUT' && request.path.includes('/send/'));
    expect(sends).toHaveLength(2);
    expect(sends[0]?.path).toBe(sends[1]?.path);
  });

  it('describes a picture to the model, posts an mxc:// file it names, and refuses a file of the machine', async () => {
    await start();
    const id = await room();
    const picture = server.upload(Buffer.from('not really a png'), 'image/png', 'cat.png');
    record.script.push(
      JSON.stringify({
        actions: [
          { type: 'send_media_matrix', payload: { file_url: 'file:///etc/passwd', interface_path: `matrix/${id}` } },
          { type: 'send_media_matrix', payload: { file_url: picture, interface_path: `matrix/${id}` } },
        ],
      }),
    );
    const at = server.streamPosition;
    server.send(id, alice, { msgtype: 'm.image', body: 'look at this', filename: 'cat.png', url: picture, info: { mimetype: 'image/png', size: 2048 } });
    const posted = await server.nextEvent(id, bot, at, (event) => event.type === 'm.room.message');
    expect(lastAsked()).toBe(`alice: [picture "cat.png" (image/png, 2 KB, ${picture})] look at this`);
    expect(posted.content).toMatchObject({ msgtype: 'm.file', url: picture });
    expect(server.events(id).filter((event) => event.sender === bot && event.type === 'm.room.message')).toHaveLength(1);
  });

  it('tells the model a voice message came that it cannot hear while speech-to-text is off', async () => {
    // Without Vox too, so the answer is written.
    await start({ ACTIVE_VOX_ENGINE: 'disabled' });
    const id = await room();
    const url = server.upload(Buffer.from('OggS'), 'audio/ogg', 'voice.ogg');
    const { reply } = await exchange(id, alice, {
      msgtype: 'm.audio',
      body: 'Voice message',
      url,
      info: { mimetype: 'audio/ogg' },
      'org.matrix.msc3245.voice': {},
    });
    expect(lastAsked()).toBe('alice: [a voice message; speech-to-text (ACTIVE_AURIS_ENGINE) is off, so it could not be heard]');
    expect(reply.content.msgtype).toBe('m.text');
  });

  it("joins only a trainer's invitations with MATRIX_AUTO_JOIN=trainers", async () => {
    await start({ MATRIX_AUTO_JOIN: 'trainers', TRAINER_IDS: `matrix:${alice}` });
    const bobs = server.createRoom(bob);
    server.invite(bobs, bob, bot);
    await room();
    expect(server.membership(bobs, bot)).toBe('invite');
    expect(logs.join('')).toContain('a Matrix invite was not accepted (MATRIX_AUTO_JOIN)');
  });

  it('says clearly that it cannot read an encrypted room, and goes on answering the others', async () => {
    await start();
    const secret = await room([], { encrypted: true });
    await matrixConnection(anima, 'connected', /1 end-to-end encrypted room not answered/);
    server.send(
      secret,
      alice,
      { algorithm: 'm.megolm.v1.aes-sha2', ciphertext: 'AwgAEnACgAkLmt6qF84IK++J7UDH2Za1YVchHyprqTqsg', session_id: 'x', device_id: 'D' },
      'm.room.encrypted',
    );
    const open = await room();
    expect((await exchange(open, alice, text('can you read me?'))).reply.content.body).toBe('re: alice: can you read me?');
    expect(server.events(secret).filter((event) => event.sender === bot && event.type === 'm.room.message')).toEqual([]);
    expect(logs.join('')).toContain('this Matrix room is end-to-end encrypted');
  });
});
