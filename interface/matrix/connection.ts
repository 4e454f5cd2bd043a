import { ClientEvent, createClient, MatrixError, SyncState, type MatrixClient, type SyncStateData } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import { type ClockPort, type ConnectionReport, waitOn } from '../../src/components/contract.ts';
import { KeptSyncStore } from './kept-sync-store.ts';
import type { SessionFile } from './session-file.ts';
import type { Settings } from './settings.ts';
import { signIn, SignInRefused, type Identity } from './sign-in.ts';

/** A client that is syncing, as the rest of the interface uses it. */
export interface Live {
  client: MatrixClient;
  identity: Identity;
  /**
   * Whether an event arriving now is new: without a kept sync token the first sync brings each room's
   * past, which is not answered; with one, it brings exactly what was missed while stopped.
   */
  isLive(): boolean;
}

export interface ConnectionOptions {
  settings: Settings;
  file: SessionFile;
  logger: Logger;
  clock: ClockPort;
  report(report: ConnectionReport): void;
  /** Wires a started client to the interface; returns the unwiring. */
  attach(live: Live): () => void;
  /** What the connected state adds to "as <user>" (rooms it cannot read). */
  note(): string | undefined;
}

/** Waits between attempts to reach the homeserver: quick at first, then once a minute. */
const RETRY_MS = [1000, 2000, 5000, 15_000, 30_000, 60_000];

const reason = (error: unknown) =>
  error instanceof MatrixError
    ? `${error.errcode ?? error.httpStatus}: ${error.data.error ?? error.message}`
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * One Matrix session from sign-in to stop: signs in (retrying while the homeserver cannot be reached),
 * starts the SDK's sync loop over the kept sync token, reports the state for the Components page, and
 * signs in again when the homeserver forgets a token a password login made.
 */
export class MatrixConnection {
  private readonly stopping = new AbortController();
  private client: MatrixClient | undefined;
  private detach: (() => void) | undefined;
  private connected = false;
  private lastReport = '';

  constructor(private readonly options: ConnectionOptions) {}

  start(): void {
    void this.run();
  }

  /**
   * Stops syncing at once. A sign-in still waiting for the homeserver is not waited for (it has its own
   * deadline): it finds the connection stopped and opens nothing.
   */
  stop(): void {
    this.stopping.abort();
    this.close();
  }

  /** Reports the connected state again, when what `note` says has changed. */
  refresh(): void {
    if (this.connected) this.reportConnected();
  }

  private async run(): Promise<void> {
    const { settings, logger } = this.options;
    for (let attempt = 0; !this.stopping.signal.aborted; attempt += 1) {
      this.report({ state: 'connecting', detail: `signing in to ${settings.homeserver} as ${settings.userId}` });
      try {
        const identity = await signIn(settings, this.options.file, logger);
        if (!this.stopping.signal.aborted) this.open(identity);
        return;
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        if (error instanceof SignInRefused) {
          logger.error({ homeserver: settings.homeserver, user_id: settings.userId }, `Matrix sign-in refused: ${error.message}`);
          this.report({ state: 'disconnected', detail: `sign-in refused: ${error.message}` });
          return;
        }
        const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 60_000;
        logger.warn({ err: error, homeserver: settings.homeserver, retry_in_ms: wait }, 'cannot reach the Matrix homeserver');
        this.report({ state: 'disconnected', detail: `cannot reach ${settings.homeserver} (${reason(error)}); retrying in ${wait / 1000} s` });
        await waitOn(this.options.clock, wait, this.stopping.signal);
      }
    }
  }

  private open(identity: Identity): void {
    const { settings, file, logger } = this.options;
    const resuming = file.session?.syncToken !== null && file.session?.syncToken !== undefined;
    let prepared = false;
    const client = createClient({
      baseUrl: settings.homeserver,
      userId: identity.userId,
      accessToken: identity.accessToken,
      ...(identity.deviceId ? { deviceId: identity.deviceId } : {}),
      store: new KeptSyncStore(file, (error) => logger.warn({ err: error }, 'the Matrix sync token could not be kept')),
      timelineSupport: false,
    });
    client.on(ClientEvent.Sync, (state: SyncState, _previous: SyncState | null, data?: SyncStateData) => {
      if (state === SyncState.Prepared || state === SyncState.Syncing) {
        prepared = true;
        this.connected = true;
        this.reportConnected();
      }
      if (state === SyncState.Error || state === SyncState.Reconnecting) this.syncFailed(identity, data?.error);
    });
    this.client = client;
    this.detach = this.options.attach({ client, identity, isLive: () => resuming || prepared });
    client
      .startClient({ initialSyncLimit: 1, lazyLoadMembers: false, threadSupport: false, disablePresence: true })
      .catch((error: unknown) => logger.error({ err: error }, 'the Matrix client failed to start'));
  }

  private syncFailed(identity: Identity, error: Error | undefined): void {
    this.connected = false;
    const lostToken = error instanceof MatrixError && error.errcode === 'M_UNKNOWN_TOKEN';
    if (!lostToken) {
      this.report({ state: 'disconnected', detail: `sync failed (${reason(error)}); retrying` });
      return;
    }
    this.close();
    if (!identity.byPassword) {
      this.options.logger.error('the homeserver no longer accepts MATRIX_ACCESS_TOKEN');
      this.report({ state: 'disconnected', detail: 'MATRIX_ACCESS_TOKEN was refused (M_UNKNOWN_TOKEN)' });
      return;
    }
    this.options.logger.info('the homeserver forgot the kept access token; logging in again');
    void this.options.file
      .update({ login: null })
      .catch((failed: unknown) => this.options.logger.warn({ err: failed }, 'the Matrix session file could not be written'))
      .then(() => this.run());
  }

  private close(): void {
    this.connected = false;
    this.detach?.();
    this.detach = undefined;
    this.client?.stopClient();
    this.client?.removeAllListeners();
    this.client = undefined;
  }

  private reportConnected(): void {
    const note = this.options.note();
    this.report({ state: 'connected', detail: `as ${this.options.settings.userId}${note ? `; ${note}` : ''}` });
  }

  /** Only a change is reported, so the page's "since" stays the time the state began. */
  private report(report: ConnectionReport): void {
    const key = `${report.state}\u0000${report.detail ?? ''}`;
    if (key === this.lastReport) return;
    this.lastReport = key;
    this.options.report(report);
  }
}
