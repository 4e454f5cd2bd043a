/** The skin's persona.json: logical face keys, emotion presets, emotion speeds. */

export type Weights = Record<string, number>;

export interface Persona {
  blendshape_map: Record<string, string> & { visemes?: Record<string, Weights> };
  emotions: Record<string, Weights>;
  emotion_speed: { default: number; decay: number };
}

declare global {
  interface Window {
    __app_emotion_face_presets?: Record<string, Weights>;
    __app_persona_emotions_list?: string[];
  }
}

export const EMPTY_PERSONA: Persona = { blendshape_map: {}, emotions: {}, emotion_speed: { default: 4, decay: 1.5 } };

function asWeights(value: unknown): Weights {
  const weights: Weights = {};
  if (value && typeof value === 'object') {
    for (const [key, weight] of Object.entries(value)) if (typeof weight === 'number') weights[key] = Math.min(1, Math.max(0, weight));
  }
  return weights;
}

/** Reads what the file offers and ignores the rest: a broken persona must not stop the avatar. */
export function parsePersona(json: unknown): Persona {
  const raw = (json ?? {}) as {
    blendshape_map?: Record<string, unknown>;
    emotions?: Record<string, unknown>;
    emotion_speed?: { default?: unknown; decay?: unknown };
  };
  const blendshapeMap: Persona['blendshape_map'] = {};
  for (const [key, value] of Object.entries(raw.blendshape_map ?? {})) {
    if (typeof value === 'string') blendshapeMap[key] = value;
  }
  const visemes = raw.blendshape_map?.visemes;
  if (visemes && typeof visemes === 'object') {
    blendshapeMap.visemes = Object.fromEntries(Object.entries(visemes).map(([letter, weights]) => [letter, asWeights(weights)]));
  }
  const emotions = Object.fromEntries(Object.entries(raw.emotions ?? {}).map(([name, weights]) => [name, asWeights(weights)]));
  const speed = raw.emotion_speed ?? {};
  return {
    blendshape_map: blendshapeMap,
    emotions,
    emotion_speed: {
      default: typeof speed.default === 'number' && speed.default > 0 ? speed.default : EMPTY_PERSONA.emotion_speed.default,
      decay: typeof speed.decay === 'number' && speed.decay >= 0 ? speed.decay : EMPTY_PERSONA.emotion_speed.decay,
    },
  };
}

/** `/skins/<skin>/persona.json` next to a skin's model; a model elsewhere (an upload) uses the default skin's. */
export function personaUrlFor(modelUrl: string): string {
  const match = /^\/skins\/([^/]+)\//.exec(new URL(modelUrl, location.href).pathname);
  return `/skins/${match?.[1] ?? 'default'}/persona.json`;
}

export async function loadPersona(modelUrl: string): Promise<Persona> {
  try {
    const response = await fetch(personaUrlFor(modelUrl));
    return response.ok ? parsePersona(await response.json()) : EMPTY_PERSONA;
  } catch {
    return EMPTY_PERSONA;
  }
}

export function publishPersona(persona: Persona): void {
  window.__app_emotion_face_presets = persona.emotions;
  window.__app_persona_emotions_list = Object.keys(persona.emotions);
}

/** A logical key (`smile`) or an expression name (`happy`) to the model's expression name. */
export function resolveKey(persona: Persona, key: string): string {
  const mapped = persona.blendshape_map[key];
  return typeof mapped === 'string' ? mapped : key;
}

/** An override name: an emotion preset of the persona, else a (logical) expression at full weight. */
export function presetFor(persona: Persona, name: string): Weights {
  return persona.emotions[name] ?? { [resolveKey(persona, name)]: 1 };
}
