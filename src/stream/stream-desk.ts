import type { Clock, TimerHandle } from '../body/clock.ts';
import type { ChainPort, StreamPort, ViewerMessage, VoicePort } from '../components/contract.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import { blockedTermsOf, isBlocked, priorityOf } from './viewer-priority.ts';

/** The most messages kept waiting; past it the least worth answering is dropped. */
const MAX_WAITING = 500;
/** A message waiting longer than this many intervals is no longer answered: the chat has moved on. */
const STALE_INTERVALS = 3;

interface Waiting {
  viewer: ViewerMessage;
  priority: number;
  at: number;
}

export interface StreamStatus {
  enabled: boolean;
  muted: boolean;
  interval_s: number;
  waiting: number;
  answering: { interface_path: string; sender_name: string; text: string } | null;
  /** Messages offered since start. */
  received: number;
  answered: number;
  filtered: number;
  dropped: number;
  skipped: number;
}

export interface StreamDeskOptions {
  chain: ChainPort;
  voice: VoicePort;
  clock: Clock;
  config: ConfigStore;
  logger: Logger;
  /** Cuts the avatar's audio at once (skip, mute). */
  silence(): void;
}

/**
 * Stream mode: live-stream chat (Twitch, YouTube) is not answered message by message. Every message that
 * passes the operator's word list waits here; at most once per STREAM_ANSWER_INTERVAL_S the one most worth
 * answering (support, then mentions, then questions; the oldest of a rank first) is answered, spoken by the
 * avatar while a Vox engine is on. One desk serves every platform, as there is one avatar and one voice.
 * A stream deck mutes the companion (nothing is said until unmuted) or skips the answer in progress.
 */
export class StreamDesk implements StreamPort {
  private waiting: Waiting[] = [];
  private timer: TimerHandle | undefined;
  private nextPickAt: number | undefined;
  private current: { viewer: ViewerMessage; controller: AbortController } | undefined;
  private muted = false;
  private stopped = false;
  private readonly counts = { received: 0, answered: 0, filtered: 0, dropped: 0, skipped: 0 };

  constructor(private readonly options: StreamDeskOptions) {}

  get enabled(): boolean {
    return this.options.config.get('STREAM_MODE');
  }

  offer(viewer: ViewerMessage): 'queued' | 'filtered' {
    this.counts.received += 1;
    if (isBlocked(viewer.message.text, blockedTermsOf(this.options.config.get('STREAM_BLOCKED_WORDS')))) {
      this.counts.filtered += 1;
      this.options.logger.debug({ interface_path: viewer.message.interfacePath }, 'stream mode: a message was filtered by STREAM_BLOCKED_WORDS');
      return 'filtered';
    }
    this.waiting.push({ viewer, priority: priorityOf(viewer), at: this.options.clock.now() });
    if (this.waiting.length > MAX_WAITING) {
      this.waiting.splice(this.waiting.indexOf(this.leastWorth()), 1);
      this.counts.dropped += 1;
    }
    this.schedule();
    return 'queued';
  }

  status(): StreamStatus {
    const answering = this.current?.viewer.message;
    return {
      enabled: this.enabled,
      muted: this.muted,
      interval_s: this.options.config.get('STREAM_ANSWER_INTERVAL_S'),
      waiting: this.waiting.length,
      answering: answering ? { interface_path: answering.interfacePath, sender_name: answering.senderName ?? '', text: answering.text } : null,
      ...this.counts,
    };
  }

  /** Muted, the companion says nothing (what it was saying is cut); messages keep waiting until unmuted. */
  setMuted(muted: boolean): StreamStatus {
    this.muted = muted;
    this.options.logger.info({ muted }, muted ? 'stream mode: muted' : 'stream mode: unmuted');
    if (muted) {
      this.cancelCurrent();
      this.options.clock.clearTimeout(this.timer);
      this.timer = undefined;
    } else {
      this.schedule();
    }
    return this.status();
  }

  /** Drops the answer in progress (its generation stops, its audio is cut); false when none was. */
  skip(): boolean {
    if (!this.current) return false;
    this.counts.skipped += 1;
    this.options.logger.info({ interface_path: this.current.viewer.message.interfacePath }, 'stream mode: the answer was skipped');
    this.cancelCurrent();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.current?.controller.abort(new Error('stream mode stopped'));
    this.waiting = [];
  }

  private cancelCurrent(): void {
    if (!this.current) return;
    this.current.controller.abort(new Error('skipped'));
    this.options.silence();
  }

  private intervalMs(): number {
    return this.options.config.get('STREAM_ANSWER_INTERVAL_S') * 1000;
  }

  /** The next pick: one interval after the last one (the first gathers for an interval too), never during an answer. */
  private schedule(): void {
    if (this.stopped || this.muted || this.current || this.timer !== undefined || this.waiting.length === 0) return;
    const now = this.options.clock.now();
    this.nextPickAt ??= now + this.intervalMs();
    this.timer = this.options.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.pick();
      },
      Math.max(0, this.nextPickAt - now),
    );
  }

  private pick(): void {
    const now = this.options.clock.now();
    const oldest = now - STALE_INTERVALS * this.intervalMs();
    const fresh = this.waiting.filter((entry) => entry.at >= oldest);
    this.counts.dropped += this.waiting.length - fresh.length;
    const best = fresh.reduce<Waiting | undefined>((found, entry) => (!found || entry.priority > found.priority ? entry : found), undefined);
    this.waiting = fresh.filter((entry) => entry !== best);
    if (!best) return;
    this.nextPickAt = now + this.intervalMs();
    const current = { viewer: best.viewer, controller: new AbortController() };
    this.current = current;
    void this.answer(current)
      .catch((error: unknown) => this.options.logger.warn({ err: error, interface_path: best.viewer.message.interfacePath }, 'stream mode: an answer failed'))
      .finally(() => {
        if (this.current === current) this.current = undefined;
        this.schedule();
      });
  }

  /** Spoken through the avatar while Vox is on (the chat gets the words too); in writing otherwise. */
  private async answer({ viewer, controller }: { viewer: ViewerMessage; controller: AbortController }): Promise<void> {
    const { chain, voice, logger } = this.options;
    const { message } = viewer;
    const spoken = voice.canSpeak;
    // The desk chose this message: a sleeping group chat must not ignore it.
    const picked = { ...message, group: false };
    const result = await chain.submit(spoken ? { ...picked, hints: { ...message.hints, animation: 'talk' } } : picked, {
      signal: controller.signal,
      ...(spoken ? { awaitsReply: true } : {}),
    });
    if (result.status !== 'queued') return;
    const outcome = await result.done;
    if (outcome.outcome === 'cancelled' || controller.signal.aborted) return;
    this.counts.answered += 1;
    if (!spoken) return;
    for (const action of outcome.delivered) {
      if (controller.signal.aborted) return;
      if (typeof action.payload.text !== 'string') continue;
      if (!(await voice.speak(message.interfacePath, action.payload.text))) {
        logger.warn({ interface_path: message.interfacePath }, 'stream mode: the answer could not be spoken');
      }
    }
  }

  /** The waiting message least worth answering: the lowest rank, the oldest of it. */
  private leastWorth(): Waiting {
    return this.waiting.reduce((found, entry) => (entry.priority < found.priority ? entry : found));
  }
}
