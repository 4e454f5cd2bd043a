import { definePlugin } from '../../src/components/contract.ts';
import { EmotionManager } from './emotion-manager.ts';

/**
 * The emotion manager (spec: "emotion manager plugin"): `[em_*]` tags, tts_speak emotions and the tone of
 * replies move the avatar's face, join animation_state as runtime emotions and fill GET /api/emotion_state.
 */
export default definePlugin({
  description: "Moves the avatar's face with the emotions of its replies ([em_*] tags, spoken emotions, their tone).",
  needs: ['body', 'clock'],
  create: ({ services, config, logger, onStop }) => {
    const manager = new EmotionManager({
      body: services.body,
      clock: services.clock,
      cooldownMs: () => config.get('EMOTION_EXPRESSION_COOLDOWN_S') * 1000,
      logger,
    });
    return {
      start() {
        onStop(services.body.provideEmotions(() => manager.snapshot()));
      },
      stop() {
        manager.stop();
      },
      promptContext: () => manager.promptLine(),
      afterReply: (turn) => manager.feel(turn.emotions, turn.reply),
    };
  },
});
