import { z } from 'zod';
import { choice, decimal, flag, integer, json, seconds, text } from '../define.ts';

const audio = { group: 'audio' } as const;
const httpTts = { group: 'http_tts' } as const;

/** One entry of VOX_LANGUAGE_OVERRIDES: which engine (and optionally model and voice) speaks a language. */
export const LanguageOverrideSchema = z.object({
  engine: z.string().min(1),
  model: z.string().optional(),
  voice: z.string().optional(),
});
export type LanguageOverride = z.infer<typeof LanguageOverrideSchema>;

/** Keys are ISO-639-1 codes, optionally with a region (`pt-BR`); the region is normalised away on use. */
export const LanguageOverridesSchema = z.record(
  z.string().regex(/^[a-z]{2}([-_][A-Za-z]{2,4})?$/, 'expected an ISO-639-1 code such as "en" or "pt-BR"'),
  LanguageOverrideSchema,
);

const settingsObject = z.record(z.string(), z.unknown());

export const audioVariables = {
  ACTIVE_AURIS_ENGINE: text('disabled', { ...audio, description: 'Active speech-to-text engine; disabled switches Auris off.' }),
  AURIS_ENGINE_SETTINGS: json('{}', settingsObject, { ...audio, description: 'JSON object forwarded to the STT engine at load.' }),
  STT_LOCAL_LANGUAGE: text('auto', { ...audio, description: 'Language of the local STT model (en-us, it, fr ...); auto detects it.' }),
  STT_LOCAL_LID_CONFIDENCE: decimal(0.5, { ...audio, min: 0, max: 1, description: 'Minimum probability to accept a detected language.' }),
  ACTIVE_VOX_ENGINE: text('local', { ...audio, description: 'Active text-to-speech engine (local, http, an external endpoint); disabled switches Vox off.' }),
  VOX_LANGUAGE_OVERRIDES: json('{}', LanguageOverridesSchema, { ...audio, description: 'JSON map of language code to {engine, model?, voice?}.' }),
  VOX_ENGINE_SETTINGS: json('{}', settingsObject, { ...audio, description: 'JSON object forwarded to the TTS engine at load.' }),
  VOX_OUTPUT_DIR: text('tmp_tts', { ...audio, restart: true, description: 'Folder for generated speech audio.' }),
  VOX_TIMEOUT_SECONDS: seconds(10, { ...audio, min: 0, description: 'Maximum wait for a TTS engine response.' }),
  VOX_FALLBACK_TO_TEXT: flag(true, { ...audio, description: 'Send the text when speech generation fails.' }),
  VOX_DEFAULT_MODEL: text('', { ...audio, description: 'Default model of the TTS engine; empty uses the engine default.' }),
  LOCAL_VOICE: text('', { ...audio, description: 'Voice of the bundled local engine; empty uses the engine default.' }),
  HTTP_VOICE: text('', { ...audio, description: 'Voice of the http engine; empty uses the engine default.' }),
  WEBUI_SPEAK_REPLIES: flag(true, {
    ...audio,
    description: 'Speak plain web chat answers sentence by sentence while Vox has an engine; each window has its own voice switch.',
  }),
  LIVE_CORTEX: text('disabled', { ...audio, description: 'Active live engine (vad, a live Cortex engine); disabled switches Live off.' }),
  LIVE_VAD_SILENCE_MS: integer(500, {
    ...audio,
    min: 200,
    max: 3000,
    description: 'Silence in ms that ends an utterance in the built-in vad Live engine; applies to new sessions.',
  }),
  LIVE_VAD_ANTICIPATE_MS: integer(200, {
    ...audio,
    min: 0,
    max: 3000,
    description:
      'Silence in ms after which a web voice conversation starts answering ahead, showing nothing until LIVE_VAD_SILENCE_MS confirms the end; 0 (or not less than LIVE_VAD_SILENCE_MS) waits for the end.',
  }),
} as const;

export const httpTtsVariables = {
  HTTP_TTS_ENDPOINTS: text('', { ...httpTts, description: 'Comma-separated URLs tried in order; empty falls back to TTS_ENDPOINTS.' }),
  TTS_ENDPOINTS: text('', { ...httpTts, description: 'Legacy name of HTTP_TTS_ENDPOINTS.' }),
  HTTP_TTS_API_KEY: text('', { ...httpTts, description: 'Sent as Authorization: Bearer <key>.' }),
  HTTP_TTS_MODEL: text('', { ...httpTts, description: 'Sent as the model header when set.' }),
  HTTP_TTS_REFERENCE_ID: text('', { ...httpTts, description: 'Voice reference id; empty uses the legacy payload.' }),
  HTTP_TTS_FORMAT: choice(['pcm', 'wav'], 'pcm', { ...httpTts, description: 'Audio format the endpoint returns.' }),
  HTTP_TTS_SAMPLE_RATE: integer(22050, { ...httpTts, min: 1000, max: 192000, description: 'Sample rate used to wrap raw PCM into WAV.' }),
  HTTP_TTS_VOICE_WAV: text('', { ...httpTts, description: 'Server-side reference voice path for the legacy payload.' }),
  HTTP_TTS_EXTRA_HEADERS: json('{}', z.record(z.string(), z.string()), { ...httpTts, description: 'JSON object of extra request headers.' }),
  HTTP_TTS_EXTRA_PARAMS: json('{}', settingsObject, { ...httpTts, description: 'JSON object merged into the payload.' }),
  HTTP_TTS_TIMEOUT_SECONDS: seconds(0, { ...httpTts, min: 0, description: 'Per-request timeout; 0 falls back to TTS_TIMEOUT_SECONDS.' }),
  TTS_TIMEOUT_SECONDS: seconds(300, { ...httpTts, min: 0, description: 'Legacy per-request timeout of the http engine.' }),
} as const;
