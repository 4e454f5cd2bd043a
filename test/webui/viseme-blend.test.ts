import { describe, expect, it } from 'vitest';
import type { VisemeCue } from '../../src/audio/visemes.ts';
import { blendVisemes } from '../../src/webui/avatar/viseme-blend.ts';

const track: VisemeCue[] = [
  { time: 0, viseme: 'sil', weight: 1 },
  { time: 0.1, viseme: 'aa', weight: 1 },
  { time: 0.3, viseme: 'ih', weight: 0.8 },
  { time: 0.33, viseme: 'ou', weight: 0.9 },
  { time: 0.36, viseme: 'oh', weight: 1 },
  { time: 0.6, viseme: 'sil', weight: 1 },
];

describe('viseme blend (the mouth at an instant of the audio)', () => {
  it('is closed in silence, before the first sound and after the last', () => {
    expect(blendVisemes(track, 0.02, 1)).toEqual({});
    expect(blendVisemes(track, 0.8, 1)).toEqual({});
    expect(blendVisemes([], 0.5, 1)).toEqual({});
  });

  it('shows a held viseme at its weight, and cross-fades into the next one', () => {
    expect(blendVisemes(track, 0.2, 1)).toEqual({ aa: 1 });
    const halfway = blendVisemes(track, 0.1, 1);
    expect(halfway.aa).toBeCloseTo(0.5, 5);
    // Fading out: still opening less and less as the silence comes in.
    expect(blendVisemes(track, 0.58, 1).oh).toBeGreaterThan(blendVisemes(track, 0.62, 1).oh ?? 0);
  });

  it('keeps only the two strongest of several short visemes', () => {
    const shapes = blendVisemes(track, 0.33, 1);
    expect(Object.keys(shapes)).toHaveLength(2);
    expect(Object.keys(shapes).sort()).toEqual(['ih', 'ou']);
  });
});
