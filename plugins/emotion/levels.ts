import type { EmotionSnapshot } from '../../src/components/contract.ts';

/** Rates per second (persona.json `emotion_speed`): how fast an emotion rises to its peak, then fades. */
export interface EmotionSpeeds {
  default: number;
  decay: number;
}

/** A level this close to its peak has reached it, and one below REST has faded out. */
const SETTLED = 0.01;
const REST = 0.01;

interface Level {
  value: number;
  /** The peak it rises to; 0 once reached, while it fades. */
  peak: number;
}

const rounded = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Each emotion's level, 0..1, on the time the caller gives: a cue sets a peak the level eases up to at
 * the `default` rate, then it fades at the `decay` rate (exponentially, as the web UI's face eases).
 */
export class EmotionLevels {
  private readonly levels = new Map<string, Level>();
  private at: number | undefined;

  constructor(private speeds: EmotionSpeeds) {}

  setSpeeds(speeds: EmotionSpeeds): void {
    this.speeds = speeds;
  }

  /** Raises `name` towards `intensity`; a weaker cue than its level now changes nothing. */
  feel(name: string, intensity: number, now: number): void {
    this.advance(now);
    const level = this.levels.get(name) ?? { value: 0, peak: 0 };
    if (intensity > level.value) level.peak = intensity;
    this.levels.set(name, level);
  }

  /** Calm (a neutral cue): every emotion stops rising and fades from where it is. */
  calm(now: number): void {
    this.advance(now);
    for (const level of this.levels.values()) level.peak = 0;
  }

  /** Moves every level to `now`. */
  advance(now: number): void {
    const seconds = this.at === undefined ? 0 : Math.max(0, (now - this.at) / 1000);
    this.at = now;
    if (seconds === 0) return;
    for (const [name, level] of this.levels) {
      if (level.peak > level.value) {
        level.value = level.peak - (level.peak - level.value) * Math.exp(-this.speeds.default * seconds);
        if (level.peak - level.value < SETTLED) [level.value, level.peak] = [level.peak, 0];
        continue;
      }
      level.value *= Math.exp(-this.speeds.decay * seconds);
      if (level.value < REST) this.levels.delete(name);
    }
  }

  /** Nothing will change until the next cue: nothing rises, and nothing is left to fade (or nothing fades). */
  get still(): boolean {
    const values = [...this.levels.values()];
    return values.every((level) => level.peak <= level.value) && (values.length === 0 || this.speeds.decay === 0);
  }

  /** Each emotion's level (rounded to 0.001). */
  values(): Record<string, number> {
    return Object.fromEntries([...this.levels].map(([name, level]) => [name, rounded(level.value)]));
  }

  /** The levels and the strongest emotion; undefined at rest. */
  snapshot(): EmotionSnapshot | undefined {
    let dominant: [string, number] | undefined;
    for (const [name, level] of this.levels) if (level.value > (dominant?.[1] ?? 0)) dominant = [name, level.value];
    return dominant ? { dominant: dominant[0], values: this.values() } : undefined;
  }
}
