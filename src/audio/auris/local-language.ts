import type { Logger } from '../../logging.ts';
import { baseLanguage } from '../languages.ts';

/** A spoken-language identifier over the first seconds of a 16 kHz mono WAV file (optional dependency). */
export type LanguageIdentifier = (wavPath: string) => Promise<{ language: string; confidence: number } | undefined>;

export interface ModelChoice<M> {
  language: string;
  model: M;
  reason: 'configured' | 'identified' | 'fallback';
}

/**
 * STT_LOCAL_LANGUAGE for the local engines. An explicit code picks that model (regional codes match the
 * base language). `auto` asks the identifier, and accepts its answer only at STT_LOCAL_LID_CONFIDENCE or
 * above and only when a model for it is installed; otherwise (no identifier, failure, low confidence) the
 * first installed model is used, as the spec says.
 */
export async function chooseLocalModel<M>(options: {
  models: Array<[string, M]>;
  setting: string;
  minConfidence: number;
  wavPath: string;
  identify: LanguageIdentifier | undefined;
  logger: Logger;
}): Promise<ModelChoice<M> | undefined> {
  const { models, setting, logger } = options;
  const find = (code: string) => models.find(([language]) => language === code) ?? models.find(([language]) => baseLanguage(language) === baseLanguage(code));
  const first = models[0];
  if (!first) return undefined;
  if (setting.trim().toLowerCase() !== 'auto') {
    const chosen = find(setting);
    if (chosen) return { language: chosen[0], model: chosen[1], reason: 'configured' };
    logger.warn({ language: setting, installed: models.map(([code]) => code) }, 'no model for STT_LOCAL_LANGUAGE; using the first installed model');
    return { language: first[0], model: first[1], reason: 'fallback' };
  }
  if (options.identify && models.length > 1) {
    try {
      const found = await options.identify(options.wavPath);
      const chosen = found && found.confidence >= options.minConfidence ? find(found.language) : undefined;
      if (chosen) return { language: chosen[0], model: chosen[1], reason: 'identified' };
      logger.debug({ found, min_confidence: options.minConfidence }, 'language identification not conclusive; using the first model');
    } catch (error) {
      logger.warn({ err: error }, 'language identification failed; using the first model');
    }
  }
  return { language: first[0], model: first[1], reason: 'fallback' };
}
