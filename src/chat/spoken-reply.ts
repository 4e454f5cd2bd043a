import { randomUUID } from 'node:crypto';
import { ttsPlayMessage, type TtsPlayMessage } from '../audio/vox/outlets.ts';
import type { SpeechSchedule } from '../audio/vox/speech-schedule.ts';
import type { PreparedSpeech } from '../audio/vox/vox-plugin.ts';
import { cleanSpeechText } from '../audio/speech-text.ts';
import type { Logger } from '../logging.ts';

/** What a spoken reply needs of Vox: one piece synthesised at a time, and the body's timeline. */
export interface ReplyVoice {
  prepare(request: { text: string }): Promise<PreparedSpeech>;
  schedule(): SpeechSchedule;
}

interface SentPiece {
  seq: number;
  text: string;
  durationS: number;
  last: boolean;
}

/**
 * The speech of one streamed reply: sentences are synthesised one at a time, in order, while the model
 * goes on writing, and each is sent as a `tts_play` piece (`utterance_id`, `seq`, `last`) and put on the
 * body's timeline. A finished piece waits only until it is known whether another follows (`last`): more
 * text after it, or the end of the reply. `stop()` (a barge-in) drops everything not yet sent.
 */
export class SpokenReply {
  readonly utteranceId = randomUUID();
  private readonly schedule: SpeechSchedule;
  private readonly waiting: string[] = [];
  private readonly sent: SentPiece[] = [];
  private ended = false;
  private stopped = false;
  private working: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly deps: {
      voice: ReplyVoice;
      /** Sends a piece to the windows that speak; called in seq order. */
      send(frame: TtsPlayMessage): void;
      /** The utterance ends with piece `seq`, which went out without `last` (what followed could not be spoken). */
      end(seq: number): void;
      /** Whether text not yet cut into a sentence will be said (the reply goes on). */
      hasMore(): boolean;
      /** An anticipated reply's verdict: pieces are synthesised ahead, but sent (and timed) only once it is true. */
      kept?: Promise<boolean>;
      logger: Logger;
    },
  ) {
    this.schedule = deps.voice.schedule();
  }

  /** A complete sentence of the reply. */
  say(sentence: string): void {
    if (this.stopped || cleanSpeechText(sentence) === '') return;
    this.waiting.push(sentence);
    this.nudge();
    this.start();
  }

  private start(): void {
    if (this.working || this.stopped || this.waiting.length === 0) return;
    this.working = this.work().finally(() => {
      this.working = undefined;
      // A sentence that arrived while the last piece was being sent.
      this.start();
    });
  }

  /** More text arrived: a piece waiting to learn whether it is the last may go. */
  nudge(): void {
    this.wake?.();
  }

  /** The reply's text is complete. */
  end(): void {
    this.ended = true;
    this.nudge();
    if (!this.working) this.closeUtterance();
  }

  /** Resolves when every piece is sent (or dropped). */
  async finished(): Promise<void> {
    while (this.working) await this.working;
  }

  get pieces(): number {
    return this.sent.length;
  }

  /** True while a piece waits for synthesis or sending, or plays on the server's timeline. */
  get active(): boolean {
    return !this.stopped && (this.working !== undefined || !this.ended || this.schedule.playing);
  }

  /** Barge-in: no more synthesis or pieces, and the body falls silent. */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
    this.schedule.stop();
    this.nudge();
  }

  /** What a window heard: the pieces before `seq` whole, then piece `seq` up to `offsetS` (at a word boundary). */
  heardText(seq: number, offsetS: number): string {
    const whole = this.sent.filter((piece) => piece.seq < seq).map((piece) => piece.text);
    const current = this.sent.find((piece) => piece.seq === seq);
    return [...whole, current ? cutAtWord(current.text, offsetS / current.durationS) : ''].filter((text) => text !== '').join(' ');
  }

  /** What the server's timeline says had been played completely by `at` (epoch ms), when no window reports. */
  playedText(at: number): string {
    const ended = new Set(this.schedule.endedBy(at));
    return this.sent
      .filter((piece) => ended.has(piece.seq))
      .map((piece) => piece.text)
      .join(' ');
  }

  private async work(): Promise<void> {
    while (this.waiting.length > 0 && !this.stopped) {
      const text = this.waiting.shift() as string;
      let piece: PreparedSpeech;
      try {
        piece = await this.deps.voice.prepare({ text });
      } catch (error) {
        this.deps.logger.warn({ err: error, utterance_id: this.utteranceId }, 'a sentence of the reply could not be synthesised; it is left unspoken');
        continue;
      }
      await this.decided();
      if (this.deps.kept && !(await this.deps.kept)) this.stop();
      if (this.stopped) return;
      const seq = this.sent.length;
      const last = this.ended && this.waiting.length === 0;
      this.sent.push({ seq, text, durationS: piece.durationS, last });
      this.schedule.add(seq, piece);
      this.deps.send(ttsPlayMessage({ ...piece, text }, { utteranceId: this.utteranceId, seq, last }));
    }
    if (this.ended && this.waiting.length === 0) this.closeUtterance();
  }

  /** The reply is over, but its last piece went out without `last` (the sentences after it failed): say it ended. */
  private closeUtterance(): void {
    const final = this.sent.at(-1);
    if (this.stopped || !final || final.last) return;
    final.last = true;
    this.deps.end(final.seq);
  }

  /** Waits until it is known whether another piece follows the one in hand. */
  private async decided(): Promise<void> {
    const known = () => this.stopped || this.ended || this.waiting.length > 0 || this.deps.hasMore();
    while (!known()) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
  }
}

/** `text` up to `fraction` of its length, cut back to the end of the last whole word. */
export function cutAtWord(text: string, fraction: number): string {
  if (!(fraction > 0)) return '';
  if (fraction >= 1) return text;
  const at = Math.floor(text.length * fraction);
  if (at >= text.length || /\s/.test(text[at] as string)) return text.slice(0, at).trim();
  const space = text.slice(0, at).search(/\s\S*$/);
  return space < 0 ? '' : text.slice(0, space).trim();
}
