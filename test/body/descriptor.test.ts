import { describe, expect, it } from 'vitest';
import {
  analyzeDescriptor,
  bucketOf,
  effectiveLoop,
  fallbackDelayMs,
  frameCount,
  outroDurationMs,
  parseDescriptor,
  type Descriptor,
} from '../../src/body/descriptor.ts';

const range = (start_frame: number, end_frame: number) => ({ start_frame, end_frame });

describe('effective_loop (the spec table, row by row)', () => {
  it('is always true for idle, whatever the descriptor says', () => {
    expect(effectiveLoop('idle', { play_once: true }, false)).toBe(true);
    expect(effectiveLoop('idle', { intro: range(0, 9) }, false)).toBe(true);
    expect(effectiveLoop('idle', null, false)).toBe(true);
  });

  it('is true when intro or outro come with a loop section', () => {
    expect(effectiveLoop('think', { intro: range(0, 9), loop: range(10, 19) }, false)).toBe(true);
    expect(effectiveLoop('think', { loop: range(0, 9), outro: range(10, 19) }, false)).toBe(true);
    expect(effectiveLoop('think', { intro: range(0, 9), loop: range(10, 19), outro: range(20, 29), play_once: true }, false)).toBe(true);
  });

  it('is false when intro or outro come without a loop section (plays once through the structure)', () => {
    expect(effectiveLoop('wave', { intro: range(0, 9), outro: range(10, 19) }, true)).toBe(false);
    expect(effectiveLoop('wave', { intro: range(0, 9) }, true)).toBe(false);
    expect(effectiveLoop('wave', { outro: range(0, 9) }, true)).toBe(false);
  });

  it('is false for a loop only with play_once (the loop plays once)', () => {
    expect(effectiveLoop('talk', { loop: range(0, 59), play_once: true }, true)).toBe(false);
  });

  it('is true for a loop only without flags', () => {
    expect(effectiveLoop('write', { loop: range(0, 29) }, false)).toBe(true);
    expect(effectiveLoop('write', { loop: range(0, 29), play_once: false }, false)).toBe(true);
  });

  it('is false for a descriptor with play_once and no sections', () => {
    expect(effectiveLoop('wave', { play_once: true }, true)).toBe(false);
  });

  it('is the caller loop parameter without a descriptor', () => {
    expect(effectiveLoop('wave', null, true)).toBe(true);
    expect(effectiveLoop('wave', null, false)).toBe(false);
  });

  it('leaves a descriptor without sections or flags to the caller, and loops on an explicit play_once false', () => {
    expect(effectiveLoop('wave', { fps: 24 }, false)).toBe(false);
    expect(effectiveLoop('wave', { fps: 24 }, true)).toBe(true);
    expect(effectiveLoop('wave', { play_once: false }, false)).toBe(true);
  });
});

describe('descriptor analysis', () => {
  it('reports the sections and their durations with end_frame inclusive and fps defaulting to 30', () => {
    const analysis = analyzeDescriptor({ intro: range(0, 14), loop: range(15, 44), outro: range(45, 59) });
    expect(analysis).toMatchObject({ has_intro: true, has_loop: true, has_outro: true, fps: 30, play_once: false, warnings: [] });
    expect(analysis.durations).toEqual({ intro: 0.5, loop: 1, outro: 0.5, total: 2 });
    expect(frameCount(range(0, 0))).toBe(1);
  });

  it('uses the descriptor fps', () => {
    expect(analyzeDescriptor({ loop: range(0, 23), fps: 24 }).durations.loop).toBe(1);
  });

  it('ignores play_once next to an intro or outro, with a warning', () => {
    const analysis = analyzeDescriptor({ intro: range(0, 9), loop: range(10, 19), play_once: true });
    expect(analysis.play_once).toBe(false);
    expect(analysis.warnings).toEqual([expect.stringContaining('play_once is ignored')]);
    expect(analyzeDescriptor({ loop: range(0, 9), play_once: true })).toMatchObject({ play_once: true, warnings: [] });
  });

  it('computes the fallback timer from the summed sections plus 1.5 s, and 3 s plus 1.5 s without sections', () => {
    expect(fallbackDelayMs({ intro: range(0, 23), outro: range(24, 47), fps: 24 })).toBe(3500);
    expect(fallbackDelayMs({ loop: range(0, 59), play_once: true })).toBe(3500);
    expect(fallbackDelayMs(null)).toBe(4500);
    expect(fallbackDelayMs({ play_once: true })).toBe(4500);
  });

  it('computes the outro wait from its frames and fps', () => {
    expect(outroDurationMs({ loop: range(0, 9), outro: range(10, 24) })).toBe(500);
    expect(outroDurationMs({ loop: range(0, 9) })).toBeUndefined();
    expect(outroDurationMs(null)).toBeUndefined();
  });
});

describe('descriptor files', () => {
  it('accepts a valid descriptor and keeps unknown keys for the client', () => {
    const reading = parseDescriptor('{"loop": {"start_frame": 0, "end_frame": 9}, "expressions": []}');
    expect(reading).toEqual({ ok: true, descriptor: { loop: range(0, 9), expressions: [] } });
  });

  it.each([
    ['not JSON', '{"loop": '],
    ['a negative frame', '{"loop": {"start_frame": -1, "end_frame": 9}}'],
    ['an end before the start', '{"loop": {"start_frame": 10, "end_frame": 9}}'],
    ['fractional frames', '{"intro": {"start_frame": 0.5, "end_frame": 9}}'],
    ['a zero fps', '{"fps": 0}'],
    ['a non-boolean play_once', '{"play_once": "yes"}'],
  ])('rejects %s', (_name, text) => {
    expect(parseDescriptor(text).ok).toBe(false);
  });
});

describe('get_animation_variants buckets', () => {
  const cases: Array<[string, Descriptor | null, string]> = [
    ['a loop section', { loop: range(0, 9) }, 'loop'],
    ['play_once false', { play_once: false }, 'loop'],
    ['play_once true', { loop: range(0, 9), play_once: true }, 'post'],
    ['no descriptor', null, 'other'],
    ['an intro and outro only', { intro: range(0, 9), outro: range(10, 19) }, 'other'],
  ];
  it.each(cases)('puts %s in %s', (_name, descriptor, bucket) => {
    expect(bucketOf(descriptor)).toBe(bucket);
  });
});
