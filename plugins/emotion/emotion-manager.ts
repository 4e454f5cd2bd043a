import type { BodyPort, ClockPort, EmotionCue, EmotionSnapshot, PersonaEmotions } from '../../src/components/contract.ts';
import { faceValues } from './face-mix.ts';
import { EmotionLevels } from './levels.ts';
import { replyMood } from './reply-mood.ts';

/** `vrm_face` goes out at most this often, and only while the levels change. */
export const FACE_INTERVAL_MS = 100;
/** Intensity of a cue that gave none: a tag means it fully, a voice's emotion colours, the reply's words only nudge. */
const TAG_INTENSITY = 1;
const SPEECH_INTENSITY = 0.6;
const MOOD_INTENSITY = 0.35;
/** The persona's resting emotion: its cue calms the others instead of becoming a level of its own. */
const NEUTRAL = 'neutral';

export interface EmotionManagerOptions {
  body: Pick<BodyPort, 'setExpression' | 'clearExpression' | 'setFaceValues' | 'persona'>;
  clock: ClockPort;
  /** How long an `[em_*]` expression stays before `vrm_expression_clear` (EMOTION_EXPRESSION_COOLDOWN_S). */
  cooldownMs: () => number;
  logger: { debug(object: object, message: string): void };
}

/**
 * The emotion manager: the emotions a reply shows become levels that rise and fade at the persona's
 * speeds, a face (`vrm_face`, throttled) and, for a tag, a short-lived expression.
 */
export class EmotionManager {
  /** Made at the first reply, with the persona's speeds (followed at every later reply). */
  private levels: EmotionLevels | undefined;
  private presets: PersonaEmotions['emotions'] = {};
  private nextFace: unknown;
  private expressionClear: unknown;

  constructor(private readonly options: EmotionManagerOptions) {}

  /** The emotions of a delivered reply; its words when it showed none. */
  async feel(cues: readonly EmotionCue[], reply: string): Promise<void> {
    const persona = await this.options.body.persona();
    this.presets = persona.emotions;
    this.levels ??= new EmotionLevels(persona.emotion_speed);
    this.levels.setSpeeds(persona.emotion_speed);
    const { levels } = this;
    const known = this.knownCues(cues, reply, persona);
    if (known.length === 0) return;
    const now = this.options.clock.now();
    for (const cue of known) {
      const intensity = cue.intensity ?? (cue.source === 'tag' ? TAG_INTENSITY : SPEECH_INTENSITY);
      if (cue.name === NEUTRAL) levels.calm(now);
      else levels.feel(cue.name, intensity, now);
    }
    const tag = known.filter((cue) => cue.source === 'tag').at(-1);
    if (tag) this.express(tag.name, tag.intensity ?? TAG_INTENSITY);
    this.scheduleFace(levels);
  }

  /** The cues of emotions the persona has, under its own spelling of their names; the reply's tone when it showed none. */
  private knownCues(cues: readonly EmotionCue[], reply: string, persona: PersonaEmotions): EmotionCue[] {
    const names = new Map(Object.keys(persona.emotions).map((name) => [name.toLowerCase(), name]));
    const known = cues.flatMap((cue) => {
      const name = names.get(cue.name.toLowerCase());
      if (name === undefined)
        this.options.logger.debug({ emotion: cue.name, source: cue.source, skin: persona.skin }, 'an emotion the persona does not have is ignored');
      return name === undefined ? [] : [{ ...cue, name }];
    });
    const mood = cues.length === 0 ? replyMood(reply, new Set(names.values())) : undefined;
    return mood ? [{ name: mood, intensity: MOOD_INTENSITY, source: 'speech' }] : known;
  }

  /** The runtime emotions now (animation_state.emotions, GET /api/emotion_state); undefined at rest. */
  snapshot(): EmotionSnapshot | undefined {
    this.levels?.advance(this.options.clock.now());
    return this.levels?.snapshot();
  }

  /** The prompt's line: which tags the model may use. */
  async promptLine(): Promise<string | undefined> {
    const names = Object.keys((await this.options.body.persona()).emotions);
    if (names.length === 0) return undefined;
    return `To show a feeling on your face, put a tag such as [em_${names.find((name) => name !== NEUTRAL) ?? names[0]}] or [em_<name>:0.5] (strength 0 to 1) in your reply where it shows; nobody sees the tag. Emotions: ${names.join(', ')}.`;
  }

  stop(): void {
    const { clock } = this.options;
    clock.clearTimeout(this.nextFace);
    clock.clearTimeout(this.expressionClear);
    this.nextFace = undefined;
    this.expressionClear = undefined;
  }

  /** The reply's (last) tag as an override, cleared after the cooldown; a new tag starts the cooldown again. */
  private express(name: string, intensity: number): void {
    const { body, clock } = this.options;
    body.setExpression(name, intensity);
    clock.clearTimeout(this.expressionClear);
    this.expressionClear = clock.setTimeout(() => {
      this.expressionClear = undefined;
      body.clearExpression();
    }, this.options.cooldownMs());
  }

  /** One face step per interval while the levels move; the last one is the face at rest. */
  private scheduleFace(levels: EmotionLevels): void {
    if (this.nextFace !== undefined) return;
    this.nextFace = this.options.clock.setTimeout(() => {
      this.nextFace = undefined;
      levels.advance(this.options.clock.now());
      this.options.body.setFaceValues(faceValues(this.presets, levels.values()));
      if (!levels.still) this.scheduleFace(levels);
    }, FACE_INTERVAL_MS);
  }
}
