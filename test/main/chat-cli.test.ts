import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnimaProcess, isBanner, spawnAnima } from '../helpers/anima-process.ts';
import { type FakeOpenAi, gate, startFakeOpenAi } from '../helpers/openai-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The client as `npm run chat` runs it, without tsx's wrapper process, then its exit status in words
 * (tmux 3.3 does not always fill in #{pane_dead_status}).
 */
const CLIENT = `${process.execPath} --import ${new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href} scripts/chat.ts; echo "client exited with status $?"`;

/** A tmux server of this test alone (`-L`), so nobody's sessions are touched. */
function tmux(server: string) {
  const run = (...args: string[]) => execFileSync('tmux', ['-L', server, ...args], { encoding: 'utf8' });
  return {
    run,
    /** What the pane shows, its lines joined; the scroll-back too. */
    screen: () => run('capture-pane', '-p', '-J', '-S', '-200', '-t', 'chat'),
    type: (text: string) => run('send-keys', '-t', 'chat', '-l', text),
    press: (...keys: string[]) => run('send-keys', '-t', 'chat', ...keys),
  };
}

describe('npm run chat: the terminal client of a running Anima, in tmux', () => {
  let cwd: string;
  let anima: AnimaProcess | undefined;
  let model: FakeOpenAi;
  let terminal: ReturnType<typeof tmux>;

  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'anima-chat-cli-'));
    // The shipped web chat interface and language-model engines, as in a checkout.
    for (const folder of ['interface', 'cortex']) await symlink(join(ROOT, folder), join(cwd, folder));
    model = await startFakeOpenAi();
    terminal = tmux(`anima-test-${randomUUID()}`);
  });

  /** Anima as a real process, then `npm run chat` in a tmux pane with `client` in its environment. */
  const launch = async (server: Record<string, string> = {}, client: Record<string, string> = {}) => {
    const environment = { CORTEX_ENGINE: 'openai', OPENAI_BASE_URL: model.baseUrl, ACTIVE_VOX_ENGINE: 'disabled', MEMORY_ENABLED: 'false', ...server };
    anima = spawnAnima(cwd, environment);
    const banner = await anima.waitFor(isBanner, 60_000);
    const variables = Object.entries({ ANIMA_URL: String(banner.web), ...client }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    terminal.run('new-session', '-d', '-s', 'chat', '-x', '120', '-y', '40', ...variables, '-c', ROOT, CLIENT);
    // The pane stays once the client exits, so its last words and exit status can be read.
    terminal.run('set-option', '-t', 'chat', 'remain-on-exit', 'on');
  };

  afterEach(async () => {
    try {
      const socket = terminal.run('display-message', '-p', '#{socket_path}').trim();
      terminal.run('kill-server');
      await rm(socket, { force: true });
    } catch {
      // the tmux server is already gone
    }
    anima?.child.kill('SIGTERM');
    await anima?.exited;
    await model.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('shows the history, the typing indicator and the answer, sleeps and wakes on command, and leaves cleanly on Ctrl-C', async () => {
    await launch();
    await expect.poll(terminal.screen, { timeout: 30_000 }).toContain('Connected to');

    const answer = gate();
    model.script({ kind: 'reply', text: 'Hello from Anima.', hold: { at: 0, release: answer.release } });
    terminal.type('hi there');
    terminal.press('Enter');
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('Anima is typing…');
    answer.open();
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('Anima: Hello from Anima.');
    const screen = terminal.screen();
    expect(screen).toContain('> hi there');
    expect(screen.indexOf('Anima is typing…')).toBeGreaterThan(screen.indexOf('> hi there'));
    expect(screen.indexOf('Anima is typing…')).toBeLessThan(screen.indexOf('Anima: Hello from Anima.'));
    expect(model.requests.at(-1)?.body.messages?.at(-1)?.content).toContain('hi there');

    terminal.type('/sleep');
    terminal.press('Enter');
    await expect
      .poll(
        () =>
          terminal
            .screen()
            .split('\n')
            .filter((line) => line.startsWith('* ')).length,
        { timeout: 20_000 },
      )
      .toBe(1);
    terminal.type('/wake');
    terminal.press('Enter');
    await expect
      .poll(
        () =>
          terminal
            .screen()
            .split('\n')
            .filter((line) => line.startsWith('* ')).length,
        { timeout: 20_000 },
      )
      .toBe(2);
    expect(model.requests).toHaveLength(1);

    terminal.press('C-c');
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('client exited with status 0');
    expect(terminal.screen()).toContain('Bye.');
  }, 120_000);

  it('a second terminal gets the conversation so far as its history', async () => {
    await launch();
    await expect.poll(terminal.screen, { timeout: 30_000 }).toContain('Connected to');
    model.script({ kind: 'reply', text: 'Noted: blue.' });
    terminal.type('my favourite colour is blue');
    terminal.press('Enter');
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('Anima: Noted: blue.');
    terminal.press('C-c');
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('client exited with status 0');

    // The second terminal in the same pane. respawn-pane clears the screen but keeps the scroll-back, and
    // whether the first client's top line is in it is tmux's timing: its "Pane is dead" notice, drawn with a
    // line feed at the bottom that scrolls that line away, comes or not as it sees the exit and the end of
    // the terminal's output in one order or the other. Without the scroll-back the pane shows the second client alone.
    terminal.run('clear-history', '-t', 'chat');
    terminal.run('respawn-pane', '-t', 'chat', '-k');
    await expect.poll(terminal.screen, { timeout: 30_000 }).toContain('Connected to');
    // The history comes first, then the greeting; what this terminal typed itself shows as `> …`, a history entry as `You: …`.
    const screen = terminal.screen();
    const history = screen.slice(0, screen.lastIndexOf('Connected to')).trimEnd().split('\n').slice(-2);
    expect(history).toEqual(['You: my favourite colour is blue', 'Anima: Noted: blue.']);
  }, 120_000);

  it('with APP_API_KEY, buys a session token for a server that does not trust this machine', async () => {
    await launch({ APP_API_KEY: 'key-for-the-terminal-1234', APP_TRUST_LOOPBACK: 'false' }, { APP_API_KEY: 'key-for-the-terminal-1234' });
    await expect.poll(terminal.screen, { timeout: 30_000 }).toContain('Connected to');
    model.script({ kind: 'reply', text: 'Trusted by key.' });
    terminal.type('are you there?');
    terminal.press('Enter');
    await expect.poll(terminal.screen, { timeout: 20_000 }).toContain('Anima: Trusted by key.');
  }, 120_000);
});
