import { describe, expect, it } from 'vitest';
import type { EmotionCue, PersonaEmotions } from '../../../src/components/contract.ts';
import { EmotionManager, FACE_INTERVAL_MS } from '../../../plugins/emotion/emotion-manager.ts';
import { faceValues } from '../../../plugins/emotion/face-mix.ts';
import { EmotionLevels } from '../../../plugins/emotion/levels.ts';
import { replyMood } from '../../../plugins/emotion/reply-mood.ts';
import { ManualClock } from '../../helpers/manual-clock.ts';

const PERSONA: PersonaEmotions = {
  skin: 'test',
  emotions: { neutral: { happy: 0, sad: 0 }, happy: { happy: 0.8 }, sad: { sad: 0.5 }, surprised: { surprised: 1, happy: 0.2 } },
  emotion_speed: { default: 4, decay: 1.5 },
};

const tag = (name: string, intensity?: number): EmotionCue => ({ name, intensity, source: 'tag' });

/** A manager on a manual clock over a body that records what it is told. */
function subject(persona: PersonaEmotions = PERSONA) {
  const clock = new ManualClock();
  const told: Array<{ at: number; type: string; value?: unknown }> = [];
  const mark = (type: string, value?: unknown) => told.push({ at: clock.now(), type, ...(value === undefined ? {} : { value }) });
  const manager = new EmotionManager({
    body: {
      setExpression: (name, intensity) => mark('expression_set', { name, intensity }),
      clearExpression: () => mark('expression_clear'),
      setFaceValues: (values) => mark('face', values),
      persona: () => Promise.resolve(persona),
    },
    clock,
    cooldownMs: () => 4000,
    logger: { debug: () => undefined },
  });
  return { clock, told, manager, faces: () => told.filter((entry) => entry.type === 'face') };
}

describe('EmotionLevels', () => {
  it('rises to the peak at the default rate, then fades at the decay rate, on the time it is given', () => {
    const levels = new EmotionLevels({ default: 4, decay: 1.5 });
    levels.feel('happy', 1, 0);
    levels.advance(250);
    // 1 - e^(-4 * 0.25)
    expect(levels.values().happy).toBeCloseTo(1 - Math.exp(-1), 3);
    levels.advance(2000);
    expect(levels.values().happy).toBe(1);
    levels.advance(3000);
    expect(levels.values().happy).toBeCloseTo(Math.exp(-1.5), 3);
    expect(levels.snapshot()).toEqual({ dominant: 'happy', values: { happy: 0.223 } });
    levels.advance(6000);
    expect(levels.snapshot()).toBeUndefined();
    expect(levels.still).toBe(true);
  });

  it('keeps the stronger emotion dominant and lets a calm stop every rise', () => {
    const levels = new EmotionLevels({ default: 4, decay: 0 });
    levels.feel('happy', 0.4, 0);
    levels.feel('sad', 0.9, 0);
    levels.advance(3000);
    expect(levels.snapshot()).toEqual({ dominant: 'sad', values: { happy: 0.4, sad: 0.9 } });
    // Without decay nothing moves any more: the face can stop updating.
    expect(levels.still).toBe(true);
    levels.feel('happy', 1, 3000);
    levels.calm(3100);
    expect(levels.still).toBe(true);
    expect(levels.values().happy).toBeLessThan(1);
  });
});

describe('faceValues', () => {
  it('scales each preset by its level, the strongest winning a shared blend shape, every preset shape present', () => {
    expect(faceValues(PERSONA.emotions, { happy: 0.5, surprised: 0.25 })).toEqual({ happy: 0.4, sad: 0, surprised: 0.25 });
    expect(faceValues(PERSONA.emotions, {})).toEqual({ happy: 0, sad: 0, surprised: 0 });
  });
});

describe('replyMood', () => {
  it('reads the tone of a reply among the persona emotions only', () => {
    const known = new Set(['happy', 'sad']);
    expect(replyMood('Haha, that is great :)', known)).toBe('happy');
    expect(replyMood("I'm so sorry to hear that.", known)).toBe('sad');
    expect(replyMood('Wow, no way!', known)).toBeUndefined();
    expect(replyMood('The train leaves at nine.', known)).toBeUndefined();
  });
});

describe('EmotionManager', () => {
  it('sets the expression of a tag and clears it after the cooldown', async () => {
    const { clock, told, manager } = subject();
    await manager.feel([tag('happy', 0.7)], 'Hello!');
    expect(told.filter((entry) => entry.type.startsWith('expression'))).toEqual([
      { at: clock.now(), type: 'expression_set', value: { name: 'happy', intensity: 0.7 } },
    ]);
    clock.advance(3999);
    expect(told.some((entry) => entry.type === 'expression_clear')).toBe(false);
    clock.advance(1);
    expect(told.filter((entry) => entry.type === 'expression_clear')).toHaveLength(1);
    manager.stop();
  });

  it('sends the face at most every 100 ms while it changes, and nothing once it is at rest', async () => {
    const { clock, manager, faces } = subject();
    const start = clock.now();
    await manager.feel([tag('happy')], '');
    expect(faces()).toEqual([]);
    clock.advance(10_000);
    const times = faces().map((entry) => entry.at - start);
    expect(times.length).toBeGreaterThan(10);
    for (const [index, time] of times.entries()) if (index > 0) expect(time - (times[index - 1] as number)).toBeGreaterThanOrEqual(FACE_INTERVAL_MS);
    // The happy blend shape rose towards 0.8, then faded back to 0; the last face is the face at rest.
    const happy = faces().map((entry) => (entry.value as Record<string, number>).happy as number);
    expect(Math.max(...happy)).toBeGreaterThan(0.75);
    expect(faces().at(-1)?.value).toEqual({ happy: 0, sad: 0, surprised: 0 });
    expect(manager.snapshot()).toBeUndefined();
    const sent = faces().length;
    clock.advance(10_000);
    expect(faces()).toHaveLength(sent);
    expect(clock.pending()).toBe(0);
  });

  it('reports the dominant emotion while it lasts', async () => {
    const { clock, manager } = subject();
    await manager.feel([tag('sad', 0.5), { name: 'happy', intensity: undefined, source: 'speech' }], '');
    clock.advance(1000);
    expect(manager.snapshot()).toMatchObject({ dominant: 'happy', values: { happy: expect.any(Number), sad: expect.any(Number) } });
    manager.stop();
  });

  it('ignores emotions the persona lacks, matches names without regard to case, and reads the tone of an untagged reply', async () => {
    const { clock, told, manager } = subject();
    await manager.feel([tag('furious')], 'Grr');
    expect(told).toEqual([]);
    await manager.feel([tag('HAPPY')], '');
    expect(told.at(-1)).toMatchObject({ type: 'expression_set', value: { name: 'happy' } });
    clock.advance(20_000);
    await manager.feel([], 'Oh no, I am so sorry.');
    clock.advance(500);
    expect(manager.snapshot()?.dominant).toBe('sad');
    manager.stop();
  });

  it('tells the model the tags of the persona, and nothing without emotions', async () => {
    expect(await subject().manager.promptLine()).toBe(
      'To show a feeling on your face, put a tag such as [em_happy] or [em_<name>:0.5] (strength 0 to 1) in your reply where it shows; nobody sees the tag. Emotions: neutral, happy, sad, surprised.',
    );
    expect(await subject({ ...PERSONA, emotions: {} }).manager.promptLine()).toBeUndefined();
  });
});
