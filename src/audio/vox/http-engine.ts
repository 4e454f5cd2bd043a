import { linkedSignal } from '../../chain/linked-signal.ts';
import type { ConfigStore } from '../../config/store.ts';
import { httpTtsEndpoints, httpTtsTimeoutSeconds } from './http-tts-settings.ts';
import type { EngineContext, EngineFactory } from '../engine-registry.ts';
import type { VoxEngine, VoxRequest } from './contract.ts';

export const HTTP_VOX_ENGINE = 'http';

/** Everything one HTTP TTS request needs; read per call so configuration changes apply at once. */
export interface HttpTtsOptions {
  /** Tried in order: the next one on a network error, a non-2xx status, an empty body or a timeout. */
  endpoints: string[];
  apiKey: string;
  /** Sent as the `model` header when non-empty. */
  model: string;
  /** Non-empty: payload {text, reference_id, format}; empty: legacy {text, voice_wav?, use_emo_text}. */
  referenceId: string;
  format: 'pcm' | 'wav';
  sampleRate: number;
  voiceWav: string;
  /** `<ENGINE>_VOICE`: beats the reference id or voice file above, and is beaten by a per-call voice. */
  voice: string;
  extraHeaders: Record<string, string>;
  extraParams: Record<string, unknown>;
  timeoutSeconds: number;
}

/** The spec's HTTP TTS table, from the HTTP_TTS_* variables with their legacy fallbacks. */
export function httpTtsOptionsFromConfig(config: ConfigStore): HttpTtsOptions {
  return {
    endpoints: httpTtsEndpoints(config),
    apiKey: config.get('HTTP_TTS_API_KEY'),
    model: config.get('HTTP_TTS_MODEL') || config.get('VOX_DEFAULT_MODEL'),
    referenceId: config.get('HTTP_TTS_REFERENCE_ID'),
    format: config.get('HTTP_TTS_FORMAT'),
    sampleRate: config.get('HTTP_TTS_SAMPLE_RATE'),
    voiceWav: config.get('HTTP_TTS_VOICE_WAV'),
    voice: config.voiceOf(HTTP_VOX_ENGINE),
    extraHeaders: config.get('HTTP_TTS_EXTRA_HEADERS'),
    extraParams: config.get('HTTP_TTS_EXTRA_PARAMS'),
    timeoutSeconds: httpTtsTimeoutSeconds(config),
  };
}

/**
 * Per-call values beat the configured ones: an explicit voice is the reference id (reference mode) or the
 * server-side voice file (legacy mode); an explicit model replaces the `model` header.
 */
export function buildHttpTtsRequest(options: HttpTtsOptions, text: string, request: Pick<VoxRequest, 'voice' | 'model'>) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.extraHeaders };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const model = request.model || options.model;
  if (model) headers.model = model;
  const voice = request.voice || options.voice;
  const referenceId = options.referenceId ? voice || options.referenceId : '';
  const voiceWav = options.referenceId ? '' : voice || options.voiceWav;
  const payload: Record<string, unknown> = referenceId
    ? { text, reference_id: referenceId, format: options.format }
    : { text, ...(voiceWav ? { voice_wav: voiceWav } : {}), use_emo_text: true };
  return { headers, body: JSON.stringify({ ...payload, ...options.extraParams }) };
}

/** Posts to each endpoint in order until one answers with audio; undefined when none does. */
export async function fetchSpeech(
  options: HttpTtsOptions,
  text: string,
  request: VoxRequest,
  { logger, clock }: Pick<EngineContext, 'logger' | 'clock'>,
): Promise<Uint8Array | undefined> {
  if (options.endpoints.length === 0) throw new Error('no HTTP TTS endpoint is configured (HTTP_TTS_ENDPOINTS)');
  const { headers, body } = buildHttpTtsRequest(options, text, request);
  for (const endpoint of options.endpoints) {
    if (request.signal.aborted) return undefined;
    // Without a deadline of its own, a silent endpoint would hold the request for undici's 300 s header timeout.
    const attempt = linkedSignal([request.signal], {
      ms: options.timeoutSeconds * 1000,
      reason: () => new Error(`no answer within ${options.timeoutSeconds} s`),
      clock,
    });
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body, signal: attempt.signal });
      const audio = new Uint8Array(await response.arrayBuffer());
      if (response.ok && audio.byteLength > 0) return audio;
      logger.warn({ endpoint, status: response.status, bytes: audio.byteLength }, 'TTS endpoint gave no audio; trying the next');
    } catch (error) {
      logger.warn({ endpoint, err: error }, 'TTS endpoint failed; trying the next');
    } finally {
      attempt.dispose();
    }
  }
  return undefined;
}

/** The `http` engine (spec alias `http`): a speech server reached over HTTP, configured by HTTP_TTS_*. */
export const createHttpVoxEngine: EngineFactory<VoxEngine> = ({ config, logger, clock }) => ({
  get outputFormat() {
    return config.get('HTTP_TTS_FORMAT');
  },
  get sampleRate() {
    return config.get('HTTP_TTS_SAMPLE_RATE');
  },
  generate: (text, _emotion, request) => fetchSpeech(httpTtsOptionsFromConfig(config), text, request, { logger, clock }),
});
