import { AnimationClip, NumberKeyframeTrack } from 'three';
import { describe, expect, it } from 'vitest';
import { locate, planSteps, sliceClip } from '../../src/webui/avatar/sections.ts';

const clip = new AnimationClip('take', 130 / 30, [new NumberKeyframeTrack('x.value', [0, 130 / 30], [0, 130])]);
const structured = {
  fps: 30,
  intro: { start_frame: 0, end_frame: 20 },
  loop: { start_frame: 20, end_frame: 110 },
  outro: { start_frame: 110, end_frame: 130 },
};

describe('descriptor sections in the web UI player', () => {
  it('plays intro then a repeating loop for a looping command, and the outro alone on the outro phase', () => {
    expect(planSteps(structured, true, 'intro', clip).map((step) => [step.section, step.repeat])).toEqual([
      ['intro', false],
      ['loop', true],
    ]);
    expect(planSteps(structured, false, 'outro', clip).map((step) => step.section)).toEqual(['outro']);
  });

  it('runs intro and outro once for a non-looping structure, and the whole clip once without sections', () => {
    const introOutro = { intro: structured.intro, outro: structured.outro };
    expect(planSteps(introOutro, false, 'intro', clip).map((step) => step.section)).toEqual(['intro', 'outro']);
    expect(planSteps(null, false, undefined, clip)).toEqual([{ section: 'once', from: 0, to: 130, repeat: false }]);
  });

  it('places a late joiner inside the right section, wrapping the loop (end_frame inclusive)', () => {
    const steps = planSteps(structured, true, 'intro', clip);
    expect(locate(steps, 30, 0.5)).toEqual({ index: 0, offset: 0.5 });
    expect(locate(steps, 30, 0.7 + 1)).toMatchObject({ index: 1 });
    expect(locate(steps, 30, 0.7 + 91 / 30 + 0.25)?.offset).toBeCloseTo(0.25);
    expect(locate(planSteps(structured, false, 'outro', clip), 30, 5)).toBeUndefined();
  });

  it('resamples a section so that its first key is the section start frame', () => {
    const loop = planSteps(structured, true, 'intro', clip)[1];
    if (!loop) throw new Error('no loop step');
    const slice = sliceClip(clip, loop, 30);
    expect(slice.duration).toBeCloseTo(91 / 30);
    expect(slice.tracks[0]?.values[0]).toBeCloseTo(20);
    expect(slice.tracks[0]?.values.at(-1)).toBeCloseTo(110);
  });
});
