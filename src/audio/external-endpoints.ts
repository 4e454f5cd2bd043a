import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ConfigStore } from '../config/store.ts';
import { httpTtsTimeoutSeconds } from './vox/http-tts-settings.ts';
import type { AurisEngine } from './auris/contract.ts';
import { SPEECH_16K } from './auris/contract.ts';
import type { EngineFactory, EngineRegistry } from './engine-registry.ts';
import type { VoxEngine } from './vox/contract.ts';
import { fetchSpeech, type HttpTtsOptions } from './vox/http-engine.ts';

/**
 * An external speech endpoint (spec: "external endpoint flow"), listed under `external_endpoints` in
 * VOX_ENGINE_SETTINGS or AURIS_ENGINE_SETTINGS. With `mappings.vox` it becomes a Vox engine named after
 * it (an HTTP TTS server: legacy or reference-id payload); with `mappings.auris` an Auris engine
 * (an OpenAI-style `/v1/audio/transcriptions` server: multipart `file` + `model`, answer `{text}`).
 */
export const ExternalEndpointSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, 'letters, digits, _ and -'),
  protocol: z.literal('custom'),
  base_url: z.url(),
  api_key: z.string().default(''),
  extra_config: z
    .looseObject({
      legacy_http_tts: z.boolean().default(false),
      tts_voice_wav: z.string().default(''),
      tts_endpoint_path: z.string().default('/tts'),
      tts_reference_id: z.string().default(''),
      tts_format: z.enum(['pcm', 'wav']).default('wav'),
      tts_sample_rate: z.number().int().min(1000).max(192000).default(22050),
      stt_endpoint_path: z.string().default('/v1/audio/transcriptions'),
      stt_model: z.string().default('whisper-1'),
    })
    .prefault({}),
  mappings: z.object({ vox: z.boolean().default(false), auris: z.boolean().default(false) }).prefault({}),
});
export type ExternalEndpoint = z.infer<typeof ExternalEndpointSchema>;

const EndpointListSchema = z.looseObject({ external_endpoints: z.array(z.unknown()).default([]) });

/** Valid endpoints from both settings objects (by name, the Vox settings first); invalid ones are reported. */
export function readExternalEndpoints(config: ConfigStore): { endpoints: ExternalEndpoint[]; invalid: string[] } {
  const raw = [config.get('VOX_ENGINE_SETTINGS'), config.get('AURIS_ENGINE_SETTINGS')].flatMap(
    (settings) => EndpointListSchema.safeParse(settings).data?.external_endpoints ?? [],
  );
  const endpoints = new Map<string, ExternalEndpoint>();
  const invalid: string[] = [];
  for (const entry of raw) {
    const parsed = ExternalEndpointSchema.safeParse(entry);
    if (!parsed.success) invalid.push(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
    else if (!endpoints.has(parsed.data.name)) endpoints.set(parsed.data.name, parsed.data);
  }
  return { endpoints: [...endpoints.values()], invalid };
}

const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

export function externalVoxEngine(endpoint: ExternalEndpoint): EngineFactory<VoxEngine> {
  const extra = endpoint.extra_config;
  return ({ config, logger, clock }) => {
    const options = (): HttpTtsOptions => ({
      endpoints: [join(endpoint.base_url, extra.tts_endpoint_path)],
      apiKey: endpoint.api_key,
      model: '',
      referenceId: extra.legacy_http_tts ? '' : extra.tts_reference_id,
      format: extra.tts_format,
      sampleRate: extra.tts_sample_rate,
      voiceWav: extra.tts_voice_wav,
      voice: config.voiceOf(endpoint.name),
      extraHeaders: {},
      extraParams: {},
      timeoutSeconds: httpTtsTimeoutSeconds(config),
    });
    return {
      outputFormat: extra.tts_format,
      sampleRate: extra.tts_sample_rate,
      generate: (text, _emotion, request) => fetchSpeech(options(), text, request, { logger, clock }),
    };
  };
}

export function externalAurisEngine(endpoint: ExternalEndpoint): EngineFactory<AurisEngine> {
  const extra = endpoint.extra_config;
  return () => ({
    input: SPEECH_16K,
    async transcribe(path, _mime, { signal }) {
      const form = new FormData();
      form.set('file', new Blob([await readFile(path)], { type: 'audio/wav' }), 'audio.wav');
      form.set('model', extra.stt_model);
      const headers: Record<string, string> = endpoint.api_key ? { authorization: `Bearer ${endpoint.api_key}` } : {};
      const response = await fetch(join(endpoint.base_url, extra.stt_endpoint_path), { method: 'POST', body: form, headers, signal });
      if (!response.ok) throw new Error(`${endpoint.name} answered ${response.status}`);
      const body = await response.text();
      const parsed = z.object({ text: z.string() }).safeParse(safeJson(body));
      return parsed.success ? parsed.data.text : body;
    },
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Registers the mapped endpoints, replacing the ones registered before; returns the names now registered. */
export function registerExternalEndpoints(
  endpoints: ExternalEndpoint[],
  registries: { vox: EngineRegistry<VoxEngine>; auris: EngineRegistry<AurisEngine> },
  previous: string[],
): string[] {
  for (const name of previous) {
    registries.vox.unregister(name);
    registries.auris.unregister(name);
  }
  for (const endpoint of endpoints) {
    if (endpoint.mappings.vox) registries.vox.register(endpoint.name, externalVoxEngine(endpoint), { external: true, local: false });
    if (endpoint.mappings.auris) registries.auris.register(endpoint.name, externalAurisEngine(endpoint), { external: true, file_based: true, local: false });
  }
  return endpoints.map((endpoint) => endpoint.name);
}
