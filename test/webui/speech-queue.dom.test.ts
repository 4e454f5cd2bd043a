import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientMessage } from '../../src/webui/protocol.ts';
import type { Speech } from '../../src/webui/avatar/speech.ts';
import { type SpeechPiece, SpeechQueue } from '../../src/webui/avatar/speech-queue.ts';

/** The page's speech as the queue drives it: what it was asked to play, and the end of the one playing. */
function recordingSpeech() {
  const played: string[] = [];
  let ended: (() => void) | undefined;
  const speech = {
    play: ({ url, onEnded }: { url: string; onEnded?: () => void }) => {
      played.push(url);
      ended = onEnded;
    },
    stop: () => undefined,
    current: () => undefined,
  } as unknown as Speech;
  return { speech, played, finish: () => ended?.() };
}

const piece = (seq: number, last: boolean): SpeechPiece =>
  ({ type: 'tts_play', url: `/tts/${seq}.wav`, audio_duration_s: 1.5, lipsync: null, text: `Sentence ${seq}.`, utterance_id: 'u', seq, last }) as SpeechPiece;

describe('the page speech queue and tts_end', () => {
  beforeEach(() => vi.stubGlobal('window', new EventTarget()));
  afterEach(() => vi.unstubAllGlobals());

  it('is over once the piece tts_end names has played, whether the end comes before or after it played out', () => {
    for (const endFirst of [true, false]) {
      const { speech, played, finish } = recordingSpeech();
      const sent: ClientMessage[] = [];
      const queue = new SpeechQueue(speech, (message) => sent.push(message) > 0);
      queue.push(piece(0, false));
      expect(played).toEqual(['/tts/0.wav']);
      if (endFirst) queue.end('u', 0);
      finish();
      // A piece that was never going to come is not waited for: a clip of the body may play again.
      expect(queue.allowsClip('/tts/other.wav')).toBe(endFirst);
      if (!endFirst) queue.end('u', 0);
      expect(queue.allowsClip('/tts/other.wav')).toBe(true);
      // A late stop is told the whole piece was heard.
      queue.stop('u');
      expect(sent).toEqual([{ type: 'tts_heard', utterance_id: 'u', seq: 0, offset_s: 1.5 }]);
    }
  });

  it('ignores a tts_end of another utterance', () => {
    const { speech, finish } = recordingSpeech();
    const queue = new SpeechQueue(speech, () => true);
    queue.push(piece(0, false));
    finish();
    queue.end('other', 0);
    expect(queue.allowsClip('/tts/other.wav')).toBe(false);
  });
});
