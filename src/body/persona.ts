import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PersonaEmotions } from '../components/contract.ts';
import type { Clock } from './clock.ts';
import { FALLBACK_SKIN, type WarnLogger } from './skin-files.ts';

const WeightsSchema = z.record(z.string(), z.number().min(0).max(1));

/** What the server reads of `skins/<skin>/persona.json`: the emotion presets and their speeds (the client reads the rest). */
const PersonaFileSchema = z.looseObject({
  emotions: z.record(z.string(), WeightsSchema).default({}),
  emotion_speed: z
    .object({ default: z.number().positive().max(1000), decay: z.number().min(0).max(1000) })
    .partial()
    .default({}),
});

/** The same speeds the web UI assumes for a persona without them (src/webui/avatar/persona.ts). */
export const DEFAULT_EMOTION_SPEED = { default: 4, decay: 1.5 } as const;

/**
 * When the file last changed, or undefined when it cannot be read (most often: the skin has none). Every
 * prompt asks, so this is a plain stat of a local file, microseconds: the promise API would send it
 * through the thread pool, between the message's arrival and the engine's request, and build an Error
 * with its stack for each missing file.
 */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
}

/** How long a read trusts its last look at the files: every prompt asks, and an edit shows within a second. */
export const PERSONA_RECHECK_MS = 1000;

/**
 * Reads the active skin's persona (the fallback skin's when it has none), again only when the file
 * changed, and looks at the files at most once a second of `clock` for the same skin (two stats on every
 * message's way to the engine were a measurable part of it). A broken file is logged and read as a
 * persona without emotions: it must not stop the body.
 */
export class PersonaReader {
  private cached: { path: string; mtimeMs: number; persona: PersonaEmotions } | undefined;
  private looked: { skin: string; at: number; persona: PersonaEmotions } | undefined;

  constructor(
    private readonly skinsDir: string,
    private readonly logger: WarnLogger,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  async read(activeSkin: string): Promise<PersonaEmotions> {
    const now = this.clock.now();
    if (this.looked?.skin === activeSkin && now - this.looked.at < PERSONA_RECHECK_MS) return this.looked.persona;
    const persona = await this.look(activeSkin);
    this.looked = { skin: activeSkin, at: now, persona };
    return persona;
  }

  private async look(activeSkin: string): Promise<PersonaEmotions> {
    for (const skin of [...new Set([activeSkin, FALLBACK_SKIN])]) {
      const path = join(this.skinsDir, skin, 'persona.json');
      const mtimeMs = modifiedAt(path);
      if (mtimeMs === undefined) continue;
      if (this.cached?.path === path && this.cached.mtimeMs === mtimeMs) return this.cached.persona;
      const persona = { skin, ...(await this.parse(path)) };
      this.cached = { path, mtimeMs, persona };
      return persona;
    }
    return { skin: activeSkin, emotions: {}, emotion_speed: { ...DEFAULT_EMOTION_SPEED } };
  }

  private async parse(path: string): Promise<Omit<PersonaEmotions, 'skin'>> {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      this.logger.warn({ path, err: error }, 'the persona file cannot be read; the avatar shows no emotions');
      return { emotions: {}, emotion_speed: { ...DEFAULT_EMOTION_SPEED } };
    }
    const parsed = PersonaFileSchema.safeParse(json);
    if (!parsed.success) {
      this.logger.warn({ path, issues: z.prettifyError(parsed.error) }, 'the persona file is not valid; the avatar shows no emotions');
      return { emotions: {}, emotion_speed: { ...DEFAULT_EMOTION_SPEED } };
    }
    return { emotions: parsed.data.emotions, emotion_speed: { ...DEFAULT_EMOTION_SPEED, ...parsed.data.emotion_speed } };
  }
}
