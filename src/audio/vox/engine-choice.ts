import type { LanguageOverride } from '../../config/variables/audio.ts';
import { DISABLED } from '../engine-registry.ts';
import { baseLanguage } from '../languages.ts';

export interface EngineChoice {
  /** Undefined: the active engine. */
  engine: string | undefined;
  voice?: string;
  model?: string;
  /** Which rule decided, for the log and the result. */
  reason: 'explicit' | 'language_override' | 'active';
}

/**
 * VOX_LANGUAGE_OVERRIDES applies only when the caller named no engine. Keys are normalised to the base
 * language (`pt-BR` matches `pt`); an entry whose engine is `disabled` keeps the default engine but still
 * contributes its model and voice; empty strings keep the defaults.
 */
export function chooseEngine(explicit: string | undefined, language: string | undefined, overrides: Record<string, LanguageOverride>): EngineChoice {
  if (explicit) return { engine: explicit, reason: 'explicit' };
  if (!language) return { engine: undefined, reason: 'active' };
  const entry = Object.entries(overrides).find(([code]) => baseLanguage(code) === baseLanguage(language))?.[1];
  if (!entry) return { engine: undefined, reason: 'active' };
  const choice: EngineChoice = { engine: entry.engine.toLowerCase() === DISABLED ? undefined : entry.engine, reason: 'language_override' };
  if (entry.voice) choice.voice = entry.voice;
  if (entry.model) choice.model = entry.model;
  return choice;
}
