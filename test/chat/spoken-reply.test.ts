import { describe, expect, it } from 'vitest';
import type { TtsPlayMessage } from '../../src/audio/vox/outlets.ts';
import { SpeechSchedule } from '../../src/audio/vox/speech-schedule.ts';
import type { PreparedSpeech } from '../../src/audio/vox/vox-plugin.ts';
import { type ReplyVoice, SpokenReply } from '../../src/chat/spoken-reply.ts';
import { silentLogger } from '../helpers/audio.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

/** A voice that speaks every sentence but those containing "unspeakable", which fail as an engine error would. */
const voice: ReplyVoice = {
  prepare: async ({ text }) => {
    if (text.includes('unspeakable')) throw new Error('the engine failed');
    return { url: `/tts/${text.length}.wav`, durationS: 1, lipsync: { mouths: [], duration: 1 } } as unknown as PreparedSpeech;
  },
  schedule: () => new SpeechSchedule(new ManualClock(), undefined),
};

/** What the windows get when a reply says these sentences, in order (`play seq last`, `end seq`). */
async function spoken(sentences: string[]): Promise<string[]> {
  const frames: string[] = [];
  const reply = new SpokenReply({
    voice,
    hasMore: () => false,
    logger: silentLogger(),
    send: (frame: TtsPlayMessage) => frames.push(`play ${frame.seq} ${frame.last}`),
    end: (seq) => frames.push(`end ${seq}`),
  });
  for (const sentence of sentences) reply.say(sentence);
  reply.end();
  await reply.finished();
  return frames;
}

describe('SpokenReply', () => {
  it('marks the last piece as last', async () => {
    expect(await spoken(['One.', 'Two.'])).toEqual(['play 0 false', 'play 1 true']);
  });

  it('skips a sentence that cannot be spoken in the middle', async () => {
    expect(await spoken(['One.', 'An unspeakable one.', 'Three.'])).toEqual(['play 0 false', 'play 1 true']);
  });

  it('ends the utterance with tts_end when its last sentences cannot be spoken after a piece went out without last', async () => {
    expect(await spoken(['One.', 'Two.', 'An unspeakable end.'])).toEqual(['play 0 false', 'play 1 false', 'end 1']);
    expect(await spoken(['An unspeakable start.'])).toEqual([]);
  });
});
