import WebSocket from 'ws';
import type { ClockPort } from '../../../src/components/contract.ts';
import { WebcastError } from './errors.ts';
import { delay } from './pacing.ts';

/** The streamer account and where the station's web broadcaster listens. */
export interface WebcastLogin {
  url: string;
  username: string;
  password: string;
  /** The container's MIME type, which the harbor picks its decoder by. */
  mime: string;
  metadata?: { title: string; artist: string };
}

/** A broadcaster session the harbor accepted. */
export interface WebcastSession {
  /** Sends container bytes; throws the WebcastError that ended the session if the harbor dropped it. */
  send(chunk: Uint8Array): void;
  /** Closes right after the bytes already sent; resolves once the socket is closed. */
  finish(): Promise<void>;
  /** Drops the connection at once (a failure elsewhere, an abort). */
  abort(): void;
}

const HANDSHAKE_TIMEOUT_MS = 5000;
/**
 * A harbor never confirms a login: it closes with 1011 on a wrong password and drops the connection when
 * another broadcaster holds the mount, both within one round trip of the hello. So the audio waits this
 * long after the hello, twice the handshake's time (a round trip or two) within these bounds. Measured
 * on Liquidsoap 2.1.3 at load 16: refusals 1-25 ms after the hello, handshakes 1-50 ms.
 */
export const VERDICT_MIN_MS = 50;
const VERDICT_MAX_MS = 400;
/** Liquidsoap never answers a close frame; it drops the connection, normally at once. */
const CLOSE_GRACE_MS = 2000;

/**
 * Logs in to a web broadcaster (Liquidsoap's `input.harbor`, through AzuraCast's `/webdj/` proxy or
 * directly) with the webcast protocol: subprotocol `webcast`, a `hello` text frame with the MIME type and
 * the streamer account, optional `metadata`, then binary container bytes. Resolves once the harbor has
 * had time to refuse the login and did not.
 */
export async function openWebcast(login: WebcastLogin, clock: ClockPort, signal?: AbortSignal): Promise<WebcastSession> {
  signal?.throwIfAborted();
  const socket = new WebSocket(login.url, 'webcast', { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, perMessageDeflate: false });
  let failure: WebcastError | undefined;
  let closing = false;
  let audioStarted = false;
  let onFailure: (error: WebcastError) => void = () => undefined;
  const fail = (error: WebcastError) => {
    if (failure || closing) return;
    failure = error;
    socket.terminate();
    onFailure(error);
  };
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('unexpected-response', (request, response) => {
    request.destroy();
    fail(
      new WebcastError(
        'connect',
        `${login.url} answered HTTP ${response.statusCode} instead of a web-broadcaster socket (check STATION_WEBDJ_URL; a harbor without the webcast subprotocol answers 404)`,
      ),
    );
  });
  let opened = false;
  socket.once('open', () => {
    opened = true;
  });
  // Once open, the close that follows an error says more (a refusal resets the connection).
  socket.on('error', (error) => {
    if (!opened) fail(new WebcastError('connect', `Could not reach the web broadcaster at ${login.url}: ${error.message}`, { cause: error }));
  });
  socket.on('close', (code, reason) => fail(refusal(login, code, reason.toString(), audioStarted)));
  const abort = () => fail(new WebcastError('connect', 'aborted'));
  signal?.addEventListener('abort', abort, { once: true });

  const failed = new Promise<never>((_resolve, reject) => {
    onFailure = reject;
  });
  // A rejection nobody awaits yet (the verdict is over) must not surface as unhandled.
  failed.catch(() => undefined);
  const race = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await Promise.race([work, failed]);
    } catch (error) {
      throw signal?.aborted ? signal.reason : error;
    }
  };

  try {
    const startedAt = clock.now();
    await race(new Promise<void>((resolve) => socket.once('open', () => resolve())));
    const handshakeMs = clock.now() - startedAt;
    socket.send(JSON.stringify({ type: 'hello', data: { mime: login.mime, user: login.username, password: login.password } }));
    await race(delay(clock, Math.min(VERDICT_MAX_MS, Math.max(VERDICT_MIN_MS, 2 * handshakeMs))));
    if (login.metadata) socket.send(JSON.stringify({ type: 'metadata', data: login.metadata }));
  } catch (error) {
    signal?.removeEventListener('abort', abort);
    socket.terminate();
    throw error;
  }

  return {
    send(chunk) {
      if (signal?.aborted) throw signal.reason;
      if (failure) throw failure;
      audioStarted = true;
      socket.send(chunk);
    },
    async finish() {
      signal?.removeEventListener('abort', abort);
      if (failure) throw failure;
      closing = true;
      socket.close(1000);
      const grace = clock.setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
      const code = await closed;
      clock.clearTimeout(grace);
      // A harbor slower than the verdict window may still refuse the login; its 1011 then comes last.
      if (code === 1011) throw refusal(login, code, '', true);
    },
    abort() {
      signal?.removeEventListener('abort', abort);
      closing = true;
      socket.terminate();
    },
  };
}

/** Why the harbor ended a session we did not close: the close code is all a harbor says. */
function refusal(login: WebcastLogin, code: number, reason: string, audioStarted: boolean): WebcastError {
  if (code === 1011)
    return new WebcastError(
      'auth',
      `The harbor at ${login.url} refused the streamer login "${login.username}" (${reason || 'close 1011'}): check STATION_STREAMER_USERNAME and STATION_STREAMER_PASSWORD, and that the streamer account is enabled`,
    );
  if (!audioStarted)
    return new WebcastError(
      'busy',
      `The harbor at ${login.url} dropped the connection right after the login (close ${code}): another broadcaster is live on the station`,
    );
  return new WebcastError('connect', `The harbor at ${login.url} dropped the connection in the middle of the banter (close ${code})`);
}
