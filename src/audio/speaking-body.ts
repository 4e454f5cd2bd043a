import type { BodyServer } from '../body/body-server.ts';
import type { TimerHandle } from '../body/clock.ts';
import type { Logger } from '../logging.ts';
import type { SpeakingBody } from './vox/speech-schedule.ts';

const TALK_STATE = 'talk';
const SOURCE = 'vox';

/**
 * Vox's only contact with the body-state server (src/body): `setAudio` (the audio tracker, which
 * broadcasts `vrm_audio` and lets late joiners resume at the right offset, and clears itself after the
 * duration) and the `talk` animation under one context per utterance, stopped when the audio ends. The
 * timer runs on the body's clock, so tests drive a whole utterance by hand.
 */
export function speakingBody(body: BodyServer, logger: Logger): SpeakingBody & { stop(): void } {
  const { clock } = body;
  const timers = new Set<TimerHandle>();
  let counter = 0;
  let talking: string | undefined;
  return {
    speak({ url, durationS, lipsync }) {
      body.setAudio({ url, audio_duration_s: durationS, ...(lipsync ? { lipsync_data: lipsync } : {}) });
      counter += 1;
      const contextId = `vox:${counter}`;
      try {
        body.transitionTo(TALK_STATE, { contextId, source: SOURCE });
      } catch (error) {
        logger.warn({ err: error }, 'the body refused the talk animation');
        return;
      }
      talking = contextId;
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        if (talking === contextId) talking = undefined;
        body.stopAnimation(contextId);
      }, durationS * 1000);
      timers.add(timer);
    },
    silence() {
      body.clearAudio();
      if (talking !== undefined) body.stopAnimation(talking);
      talking = undefined;
    },
    stop() {
      for (const timer of timers) clock.clearTimeout(timer);
      timers.clear();
    },
  };
}
