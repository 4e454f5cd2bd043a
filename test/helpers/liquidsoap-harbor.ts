import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { freePort } from './free-port.ts';

/** One live session as the harbor played it, recorded to a WAV file of its own. */
export interface HarborRecording {
  path: string;
  /** Epoch ms (the harbor's clock, this machine's) when the harbor began playing the session. */
  startedAtMs: number;
  /** Epoch ms when it had played everything and the recording closed. */
  endedAtMs: number;
}

export interface LiquidsoapHarbor {
  /** The web-broadcaster URL (what STATION_WEBDJ_URL holds for a direct connection). */
  url: string;
  port: number;
  username: string;
  password: string;
  /** Every title and artist the broadcasters sent, in order. */
  metadata: Array<{ title?: string; artist?: string }>;
  /** How many broadcasters have logged in so far (a refused login does not count). */
  logins(): number;
  /** Resolves once `count` broadcasters in all have logged in. */
  loggedIn(count: number, timeoutMs?: number): Promise<void>;
  /** The next finished session (in order; one that already finished and was not taken yet comes first). */
  nextRecording(timeoutMs?: number): Promise<HarborRecording>;
  /** The log so far, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

export interface HarborOptions {
  username?: string;
  password?: string;
  /** AzuraCast's defaults: 5 s of buffer before playing, at most 10 s held. */
  bufferS?: number;
  maxS?: number;
}

// Liquidsoap starts in 2-4 s on an idle machine, many times that on a loaded one.
const START_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 5000;

/** A Liquidsoap string literal. */
const literal = (text: string) => JSON.stringify(text);

/**
 * The harbor of an AzuraCast station (`input.harbor` on "/", streamer auth, buffer and max as AzuraCast
 * writes them), recording only the live input, one WAV per session, and saying on stdout when a session
 * starts playing and when its recording closes (with the harbor's own time, so pipe delays do not count).
 */
function harborScript(port: number, folder: string, options: Required<HarborOptions>): string {
  return `
settings.init.allow_root.set(true)
settings.log.stdout.set(true)
settings.log.file.set(false)
settings.log.level.set(3)
settings.harbor.bind_addrs.set(["127.0.0.1"])
def stamp() = string_of_float(decimal_places=3, time()) end
def dj_auth(login) =
  login.user == ${literal(options.username)} and login.password == ${literal(options.password)}
end
def on_connect(_) = print("HARBOR connect #{stamp()}") end
live = input.harbor("/", id="input_streamer", port=${port}, auth=dj_auth, on_connect=on_connect, buffer=${options.bufferS.toFixed(2)}, max=${options.maxS.toFixed(2)})
live = source.on_metadata(live, fun (m) -> print("HARBOR metadata #{json.stringify(compact=true, m)}"))
session = ref(0)
def on_start() = print("HARBOR start #{stamp()}") end
def on_close(path) =
  print("HARBOR recorded #{stamp()} #{path}")
  session := !session + 1
end
output.file(%wav, {${literal(folder)} ^ "/session-#{!session}.wav"}, fallible=true, on_start=on_start, on_close=on_close, live)
`;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts Debian's `liquidsoap` with an AzuraCast-like harbor on a free port; resolves once it accepts connections. */
export async function startHarbor(options: HarborOptions = {}): Promise<LiquidsoapHarbor> {
  const settings: Required<HarborOptions> = { username: 'dj', password: 'secret', bufferS: 5, maxS: 10, ...options };
  const folder = await mkdtemp(join(tmpdir(), 'anima-harbor-'));
  const port = await freePort();
  const scriptPath = join(folder, 'harbor.liq');
  await writeFile(scriptPath, harborScript(port, folder, settings));
  const child = spawn('liquidsoap', [scriptPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const started: number[] = [];
  const recordings: HarborRecording[] = [];
  const metadata: LiquidsoapHarbor['metadata'] = [];
  const waiters: Array<() => boolean> = [];
  let connections = 0;
  let taken = 0;
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [, event, rest = ''] = /^HARBOR (\w+) ?(.*)$/.exec(line) ?? [];
      if (event === 'start') started.push(Number(rest) * 1000);
      if (event === 'connect') connections += 1;
      if (event === 'metadata') {
        // Liquidsoap's metadata is a list of pairs; the encoder's own tags come as a chunk too.
        const { title, artist } = Object.fromEntries(JSON.parse(rest) as Array<[string, string]>);
        if (title !== undefined || artist !== undefined) metadata.push({ title, artist });
      }
      if (event === 'recorded') {
        const [at = '', ...path] = rest.split(' ');
        recordings.push({ path: path.join(' '), startedAtMs: started[recordings.length] ?? Number.NaN, endedAtMs: Number(at) * 1000 });
      }
      for (const waiter of [...waiters]) if (waiter()) waiters.splice(waiters.indexOf(waiter), 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves with what `check` finds, checking again at each line liquidsoap prints. */
  const until = <T>(what: string, check: () => T | undefined, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const waiter = (): boolean => {
        const found = check();
        if (found === undefined) return false;
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} from the harbor within ${timeoutMs} ms\n${log.slice(-2000)}`));
      }, timeoutMs);
      if (!waiter()) waiters.push(waiter);
    });

  const harbor: LiquidsoapHarbor = {
    url: `ws://127.0.0.1:${port}/`,
    port,
    username: settings.username,
    password: settings.password,
    metadata,
    log: () => log,
    nextRecording: (timeoutMs = 30_000) =>
      until(
        'a recording',
        () => {
          const recording = recordings[taken];
          if (recording) taken += 1;
          return recording;
        },
        timeoutMs,
      ),
    logins: () => connections,
    loggedIn: async (count, timeoutMs = 10_000) => {
      await until(`${count} logins`, () => (connections >= count ? true : undefined), timeoutMs);
    },
    stop: async () => {
      await stopProcess(child, exited);
      await rm(folder, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilListening(port, exited, () => log);
  } catch (error) {
    await harbor.stop();
    throw error;
  }
  return harbor;
}

/** Waits for the harbor's mount line, then for its port to take a connection; fails if liquidsoap exits. */
async function waitUntilListening(port: number, exited: Promise<number | null>, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`liquidsoap exited with ${exitCode} before listening:\n${log().slice(-2000)}`);
    if (log().includes(`Adding mountpoint '/' on port ${port}`) && (await accepts(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`liquidsoap did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${log().slice(-2000)}`);
}

async function stopProcess(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** What ffmpeg measures of a recording: its length, its level, and the part that is not silence. */
export interface AudioMeasure {
  durationS: number;
  meanVolumeDb: number;
  maxVolumeDb: number;
  /** Seconds of sound (louder than -50 dB). */
  soundS: number;
}

const probeDuration = (path: string) =>
  new Promise<number>((resolve, reject) => ffmpeg.ffprobe(path, (error, data) => (error ? reject(error) : resolve(Number(data.format.duration)))));

/** Runs ffmpeg's `volumedetect` and `silencedetect` over a file (they report on stderr). */
export async function measureAudio(path: string): Promise<AudioMeasure> {
  const durationS = await probeDuration(path);
  const report = await new Promise<string>((resolve, reject) => {
    ffmpeg(path)
      .audioFilters(['silencedetect=noise=-50dB:d=0.1', 'volumedetect'])
      .format('null')
      .on('error', reject)
      .on('end', (_stdout: string | null, stderr: string | null) => resolve(stderr ?? ''))
      .save('-');
  });
  const level = (pattern: RegExp) => Number(pattern.exec(report)?.[1] ?? Number.NaN);
  const starts = [...report.matchAll(/silence_start: (-?[\d.]+)/g)].map((match) => Number(match[1]));
  const ends = [...report.matchAll(/silence_end: ([\d.]+)/g)].map((match) => Number(match[1]));
  // A silence still running at the end of the file has a start and no end.
  const silenceS = starts.reduce((sum, start, index) => sum + ((ends[index] ?? durationS) - Math.max(0, start)), 0);
  return {
    durationS,
    meanVolumeDb: level(/mean_volume: (-?[\d.]+) dB/),
    maxVolumeDb: level(/max_volume: (-?[\d.]+) dB/),
    soundS: durationS - silenceS,
  };
}
