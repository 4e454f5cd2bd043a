import { describe, expect, it } from 'vitest';
import { AudioTracker } from '../../src/body/audio-tracker.ts';
import type { AudioState } from '../../src/body/messages.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

/** A machine under load: arming a timer takes a few milliseconds of the clock. */
class SlowClock extends ManualClock {
  override setTimeout(callback: () => void, ms: number) {
    const handle = super.setTimeout(callback, ms);
    this.advance(3);
    return handle;
  }
}

describe('the audio tracker', () => {
  it('announces a clip that starts now at offset 0, however long the set-up took, and late joiners at the time played', () => {
    const clock = new SlowClock();
    const announced: Array<AudioState | null> = [];
    const tracker = new AudioTracker(clock, (state) => announced.push(state));
    const state = tracker.set({ url: '/tts/a.wav', audio_duration_s: 2 });
    // A window that seeks a clip it is starting to a few milliseconds may hear its beginning twice.
    expect(announced).toEqual([expect.objectContaining({ url: '/tts/a.wav', offset_s: 0 })]);
    expect(state.offset_s).toBe(0);
    clock.advance(497);
    expect(tracker.current()?.offset_s).toBe(0.5);
    tracker.stop();
  });
});
