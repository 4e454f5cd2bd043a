/**
 * The spoken reply as a queue of pieces (`tts_play` with `utterance_id`, `seq`, `last`): they play in
 * `seq` order whatever order they arrive in, the next piece's element is created ahead (`preload=auto`)
 * so it starts as the previous one ends, and a new utterance replaces the old one. Whenever an
 * utterance is cut short (`tts_stop`, a newer utterance, the voice switch turned off) the page answers
 * `tts_heard` with how far playback got, so the server keeps only what was heard.
 */
import type { ClientMessage, ServerMessage } from '../protocol.ts';
import { announceSpeech, type Speech } from './speech.ts';

/** A `tts_play`; an older server's single clip (no utterance fields) is an utterance of one piece. */
export type SpeechPiece = Extract<ServerMessage, { type: 'tts_play' }> & Partial<{ utterance_id: string; seq: number; last: boolean }>;

interface Utterance {
  id: string;
  /** Arrived pieces not played yet, by seq. */
  waiting: Map<number, SpeechPiece>;
  /** The seq playing, or the one awaited next. */
  next: number;
  playing: boolean;
  preloaded: { seq: number; element: HTMLAudioElement } | undefined;
  /** How far it got: the end of the last piece played out, or where it was stopped; told again to a late `tts_stop`. */
  heard: { seq: number; offset_s: number } | undefined;
  /** The piece it ends with, when `tts_end` said so (the pieces after it could not be spoken). */
  endsWith: number | undefined;
  done: boolean;
}

/** Ids and URLs remembered, so late pieces of a stopped utterance and late `vrm_audio` echoes stay silent. */
const REMEMBERED = 32;

export interface SpeechPieceStart {
  utterance_id: string;
  seq: number;
  url: string;
}

export class SpeechQueue {
  private utterance: Utterance | undefined;
  private enabled = true;
  private readonly stopped: string[] = [];
  private readonly knownUrls: string[] = [];

  constructor(
    private readonly speech: Speech,
    private readonly send: (message: ClientMessage) => boolean,
  ) {}

  /** The voice switch: off stops what plays (answering tts_heard) and keeps every later piece silent. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (enabled) return;
    if (this.utterance && !this.utterance.done) this.halt(this.utterance);
    this.speech.stop();
  }

  push(piece: SpeechPiece): void {
    if (!this.enabled) return;
    const id = piece.utterance_id ?? crypto.randomUUID();
    const seq = piece.seq ?? 0;
    if (this.stopped.includes(id)) return;
    remember(this.knownUrls, piece.url);
    announceSpeech(piece);
    let utterance = this.utterance;
    if (utterance?.id !== id) {
      if (utterance && !utterance.done) this.halt(utterance);
      utterance = { id, waiting: new Map(), next: 0, playing: false, preloaded: undefined, heard: undefined, endsWith: undefined, done: false };
      this.utterance = utterance;
    }
    if (utterance.done || seq < utterance.next || utterance.waiting.has(seq)) return;
    utterance.waiting.set(seq, { ...piece, utterance_id: id, seq, last: piece.last ?? true });
    this.advance(utterance);
  }

  /** `tts_stop`: silence at once, drop what waits, and say how far playback got. */
  stop(utteranceId: string): void {
    const utterance = this.utterance;
    if (utterance?.id === utteranceId && !utterance.done) {
      this.halt(utterance);
      return;
    }
    // Over already, or nothing of it arrived yet (then later pieces stay silent).
    const heard = utterance?.id === utteranceId && utterance.heard ? utterance.heard : { seq: 0, offset_s: 0 };
    if (utterance?.id !== utteranceId) remember(this.stopped, utteranceId);
    this.send({ type: 'tts_heard', utterance_id: utteranceId, ...heard });
  }

  /** `tts_end`: the utterance ends with piece `seq`; over at once if that piece has already played out. */
  end(utteranceId: string, seq: number): void {
    const utterance = this.utterance;
    if (utterance?.id !== utteranceId || utterance.done) return;
    utterance.endsWith = seq;
    if (!utterance.playing && utterance.next > seq) utterance.done = true;
  }

  /** Whether a body `vrm_audio` clip may play alone: the switch is on, no utterance runs, and it is no piece already had. */
  allowsClip(url: string): boolean {
    return this.enabled && !(this.utterance && !this.utterance.done) && !this.knownUrls.includes(url);
  }

  private advance(utterance: Utterance): void {
    if (!utterance.playing) {
      const piece = utterance.waiting.get(utterance.next);
      if (!piece) return;
      utterance.waiting.delete(utterance.next);
      utterance.playing = true;
      const element = utterance.preloaded?.seq === utterance.next ? utterance.preloaded.element : undefined;
      utterance.preloaded = undefined;
      this.speech.play({ url: piece.url, lipsync: piece.lipsync, element, onEnded: () => this.ended(utterance, piece) });
      const started: SpeechPieceStart = { utterance_id: utterance.id, seq: utterance.next, url: piece.url };
      window.dispatchEvent(new CustomEvent('app:speech-piece', { detail: started }));
    }
    const following = utterance.waiting.get(utterance.next + 1);
    if (following && !utterance.preloaded) {
      const element = new Audio();
      element.preload = 'auto';
      element.src = following.url;
      utterance.preloaded = { seq: utterance.next + 1, element };
    }
  }

  private ended(utterance: Utterance, piece: SpeechPiece): void {
    if (utterance !== this.utterance || utterance.done) return;
    utterance.playing = false;
    utterance.next += 1;
    utterance.heard = { seq: utterance.next - 1, offset_s: piece.audio_duration_s };
    if (!piece.last && utterance.endsWith !== utterance.next - 1) {
      this.advance(utterance);
      return;
    }
    utterance.done = true;
  }

  /** Stops the utterance where it is and tells the server: the piece playing (or awaited next) and the time into it. */
  private halt(utterance: Utterance): void {
    utterance.heard = { seq: utterance.next, offset_s: utterance.playing ? (this.speech.current()?.time ?? 0) : 0 };
    utterance.done = true;
    utterance.waiting.clear();
    if (utterance.preloaded) utterance.preloaded.element.removeAttribute('src');
    utterance.preloaded = undefined;
    if (utterance.playing) this.speech.stop();
    utterance.playing = false;
    remember(this.stopped, utterance.id);
    this.send({ type: 'tts_heard', utterance_id: utterance.id, ...utterance.heard });
  }
}

function remember(list: string[], value: string): void {
  list.push(value);
  if (list.length > REMEMBERED) list.shift();
}
