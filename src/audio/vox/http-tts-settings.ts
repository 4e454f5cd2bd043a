/**
 * The http TTS engine's endpoints and timeout as read from the configuration: the HTTP_TTS_* names, or
 * the legacy TTS_* names they replaced when those are left unset.
 */
import type { ConfigStore } from '../../config/store.ts';

/** The http TTS endpoints in failover order; the legacy TTS_ENDPOINTS applies when the new name is empty. */
export function httpTtsEndpoints(config: ConfigStore): string[] {
  const current = config.get('HTTP_TTS_ENDPOINTS').trim();
  const chosen = current !== '' ? current : config.get('TTS_ENDPOINTS');
  return chosen
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

/** Per-request timeout of the http TTS engine; 0 means the legacy TTS_TIMEOUT_SECONDS (default 300). */
export function httpTtsTimeoutSeconds(config: ConfigStore): number {
  const current = config.get('HTTP_TTS_TIMEOUT_SECONDS');
  return current > 0 ? current : config.get('TTS_TIMEOUT_SECONDS');
}
