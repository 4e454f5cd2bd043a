import { cleanSpeechText } from '../audio/speech-text.ts';
import { SentenceSplitter } from './sentence-splitter.ts';
import type { SpokenReply } from './spoken-reply.ts';

/** A reply that starts like this is action JSON (or a code block): no deltas, no sentence speech. */
const ACTION_START = /^[{[`]/;

/**
 * One answer's text as the model writes it: plain text goes out as deltas (`chat_delta`) and, sentence by
 * sentence, to its speech, if it has one; an action-JSON reply, or the fenced action block after a plain
 * sentence, is left to the dispatch at the end (the final chat_message shows what it delivers).
 */
export class StreamedReply {
  private kind: 'undecided' | 'plain' | 'action' = 'undecided';
  private head = '';
  private readonly splitter = new SentenceSplitter();
  private speech: SpokenReply | undefined;
  /** Backticks at the end of the text so far: they may open a code fence with the next piece. */
  private held = '';
  /** A code fence starts an action block, which is neither shown nor spoken as it comes. */
  private fenced = false;

  constructor(
    private readonly deps: {
      /** A piece of plain text for the windows. */
      delta(text: string): void;
      /** The speech of a plain reply, when it is to be spoken (asked once, at its first words). */
      speech(): SpokenReply | undefined;
    },
  ) {}

  get spoken(): SpokenReply | undefined {
    return this.speech;
  }

  /** Whether text not yet cut into a sentence will be spoken. */
  get hasMore(): boolean {
    return cleanSpeechText(this.splitter.pending) !== '';
  }

  push(delta: string): void {
    if (this.kind === 'action') return;
    if (this.kind === 'undecided') {
      this.head += delta;
      const start = this.head.trimStart();
      if (start === '') return;
      this.kind = ACTION_START.test(start) ? 'action' : 'plain';
      if (this.kind === 'action') return;
      this.speech = this.deps.speech();
      this.emit(this.head);
      return;
    }
    this.emit(delta);
  }

  /** The model finished (or failed): the rest is the last sentence. */
  end(): void {
    if (this.held !== '') this.emit('', true);
    const rest = this.splitter.flush();
    if (rest !== undefined) this.speech?.say(rest);
    this.speech?.end();
  }

  private emit(piece: string, final = false): void {
    if (this.fenced) return;
    let text = this.held + piece;
    this.held = '';
    const fence = text.indexOf('```');
    if (fence >= 0) {
      this.fenced = true;
      text = text.slice(0, fence);
    } else if (!final) {
      this.held = /`{1,2}$/.exec(text)?.[0] ?? '';
      text = text.slice(0, text.length - this.held.length);
    }
    if (text === '') return;
    this.deps.delta(text);
    if (!this.speech) return;
    for (const sentence of this.splitter.push(text)) this.speech.say(sentence);
    this.speech.nudge();
  }
}
