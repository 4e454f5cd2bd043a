import { z } from 'zod';

export const DEFAULT_FPS = 30;
/** Added to a non-looping clip's length before the server stops waiting for the client's completion. */
export const FALLBACK_BUFFER_MS = 1500;
/** Assumed length of a non-looping clip that has no descriptor. */
export const DEFAULT_CLIP_MS = 3000;

export const FrameRangeSchema = z
  .object({ start_frame: z.number().int().min(0), end_frame: z.number().int().min(0) })
  .refine((range) => range.end_frame >= range.start_frame, { message: 'end_frame must not come before start_frame' });
export type FrameRange = z.infer<typeof FrameRangeSchema>;

const WeightSchema = z.number().min(0).max(1);

/** A face cue of the spec's animation_state: targets (the skin's logical keys) held between two frames. */
export const ExpressionCueSchema = z
  .object({
    start_frame: z.number().int().min(0),
    end_frame: z.number().int().min(0),
    targets: z.record(z.string().min(1).max(100), WeightSchema),
    source: z.string().max(100).optional(),
    priority: z.number().int().optional(),
  })
  .refine((cue) => cue.end_frame >= cue.start_frame, { message: 'end_frame must not come before start_frame' });

/**
 * `<Name>.fbx.json`: the single source of truth for an animation's timings, and for the face cues,
 * blinking and eye movement that go with it (sent as animation_state). Unknown keys pass through to clients.
 */
export const DescriptorSchema = z.looseObject({
  intro: FrameRangeSchema.optional(),
  loop: FrameRangeSchema.optional(),
  outro: FrameRangeSchema.optional(),
  play_once: z.boolean().optional(),
  fps: z.number().positive().max(1000).optional(),
  expressions: z.array(ExpressionCueSchema).max(1000).optional(),
  blink: z.object({ auto: z.boolean().optional(), rate_s: z.number().positive().max(3600).optional(), intensity: WeightSchema.optional() }).optional(),
  eye_movement: z.object({ auto: z.boolean().optional(), saccade_rate_s: z.number().positive().max(3600).optional() }).optional(),
});
export type Descriptor = z.infer<typeof DescriptorSchema>;

export type Section = 'intro' | 'loop' | 'outro';
const SECTIONS: readonly Section[] = ['intro', 'loop', 'outro'];

export interface DescriptorAnalysis {
  has_intro: boolean;
  has_loop: boolean;
  has_outro: boolean;
  /** play_once as it applies: false when intro or outro make it meaningless. */
  play_once: boolean;
  fps: number;
  /** Seconds per present section, and their sum. */
  durations: { intro: number | null; loop: number | null; outro: number | null; total: number };
  warnings: string[];
}

/** end_frame is inclusive (docs/decisions.md): a section from frame 0 to frame 29 is 30 frames. */
export function frameCount(range: FrameRange): number {
  return range.end_frame - range.start_frame + 1;
}

export function fpsOf(descriptor: Descriptor): number {
  return descriptor.fps ?? DEFAULT_FPS;
}

export function isStructured(descriptor: Descriptor | null): boolean {
  return Boolean(descriptor && (descriptor.intro || descriptor.outro));
}

export function analyzeDescriptor(descriptor: Descriptor): DescriptorAnalysis {
  const fps = fpsOf(descriptor);
  const seconds = (section: Section) => {
    const range = descriptor[section];
    return range ? frameCount(range) / fps : null;
  };
  const durations = { intro: seconds('intro'), loop: seconds('loop'), outro: seconds('outro'), total: 0 };
  durations.total = SECTIONS.reduce((sum, section) => sum + (durations[section] ?? 0), 0);
  const warnings: string[] = [];
  const structured = isStructured(descriptor);
  if (descriptor.play_once === true && structured) warnings.push('play_once is ignored next to an intro or outro section');
  return {
    has_intro: Boolean(descriptor.intro),
    has_loop: Boolean(descriptor.loop),
    has_outro: Boolean(descriptor.outro),
    play_once: descriptor.play_once === true && !structured,
    fps,
    durations,
    warnings,
  };
}

/**
 * The spec's effective_loop table. A descriptor that has no section and no play_once flag says nothing
 * about looping, so the caller's loop parameter decides, as without a descriptor (docs/decisions.md).
 */
export function effectiveLoop(state: string, descriptor: Descriptor | null, callerLoop: boolean): boolean {
  if (state === 'idle') return true;
  if (!descriptor) return callerLoop;
  if (isStructured(descriptor)) return Boolean(descriptor.loop);
  if (descriptor.loop) return descriptor.play_once !== true;
  if (descriptor.play_once === true) return false;
  if (descriptor.play_once === false) return true;
  return callerLoop;
}

/** How long to wait for a non-looping clip: its sections at their fps plus a buffer; 3 s plus the buffer without sections. */
export function fallbackDelayMs(descriptor: Descriptor | null): number {
  const total = descriptor ? analyzeDescriptor(descriptor).durations.total : 0;
  return (total > 0 ? total * 1000 : DEFAULT_CLIP_MS) + FALLBACK_BUFFER_MS;
}

/** The outro's own length, or undefined when the descriptor has none. */
export function outroDurationMs(descriptor: Descriptor | null): number | undefined {
  if (!descriptor?.outro) return undefined;
  return (frameCount(descriptor.outro) / fpsOf(descriptor)) * 1000;
}

export type DescriptorReading = { ok: true; descriptor: Descriptor } | { ok: false; reason: string };

/** Parses a descriptor file's text; a broken file is reported, never thrown. */
export function parseDescriptor(text: string): DescriptorReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  const result = DescriptorSchema.safeParse(json);
  if (!result.success) return { ok: false, reason: z.prettifyError(result.error) };
  return { ok: true, descriptor: result.data };
}

export type Bucket = 'loop' | 'post' | 'other';

/**
 * get_animation_variants' buckets: `loop` when the descriptor loops (a loop section, or play_once false),
 * `post` when play_once applies, `other` for everything else (no descriptor, or a descriptor that only
 * plays through an intro/outro structure). play_once next to a loop section that it cannot affect
 * (intro or outro present) is ignored, as the playback rules say.
 */
export function bucketOf(descriptor: Descriptor | null): Bucket {
  if (!descriptor) return 'other';
  if (descriptor.play_once === true && !isStructured(descriptor)) return 'post';
  if (descriptor.loop || descriptor.play_once === false) return 'loop';
  return 'other';
}
