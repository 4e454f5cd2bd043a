import { z } from 'zod';
import type { VariableDefinition } from './define.ts';
import { audioVariables, httpTtsVariables } from './variables/audio.ts';
import { attentionVariables, databaseVariables, historyVariables, serverVariables, storageVariables, systemVariables } from './variables/server.ts';
import { memoryVariables } from './variables/memory.ts';
import { avatarVariables, compatVariables, cortexVariables, platformVariables, radioVariables } from './variables/services.ts';

/** Every configuration variable of Anima, with its default. The single source of configuration defaults. */
export const variables = {
  ...serverVariables,
  ...databaseVariables,
  ...storageVariables,
  ...historyVariables,
  ...attentionVariables,
  ...systemVariables,
  ...avatarVariables,
  ...cortexVariables,
  ...compatVariables,
  ...radioVariables,
  ...platformVariables,
  ...memoryVariables,
  ...audioVariables,
  ...httpTtsVariables,
} as const;

export type VariableKey = keyof typeof variables;
export type ConfigValues = {
  [K in VariableKey]: (typeof variables)[K] extends VariableDefinition<infer T> ? T : never;
};

/** Older names that still work: a source that sets only the alias sets the variable. */
export const aliases: Readonly<Record<string, VariableKey>> = {
  CHAT_HISTORY_LIMIT: 'CHAT_HISTORY',
};

/** `<ENGINE>_VOICE` is open-ended: any engine may have its configured voice. */
const VOICE_KEY = /^[A-Z][A-Z0-9_]*_VOICE$/;
const voiceVariable: VariableDefinition<string> = {
  group: 'audio',
  type: 'string',
  default: '',
  schema: z.string(),
  description: 'Configured voice of one TTS engine; empty uses the engine default.',
};

export function isVariableKey(key: string): key is VariableKey {
  return Object.hasOwn(variables, key);
}

/** The definition of a known variable, an engine voice, or undefined. Aliases resolve to their target. */
export function findVariable(key: string): { key: string; definition: VariableDefinition } | undefined {
  const canonical = aliases[key] ?? key;
  if (isVariableKey(canonical)) return { key: canonical, definition: variables[canonical] };
  if (VOICE_KEY.test(canonical)) return { key: canonical, definition: voiceVariable };
  return undefined;
}

export function isVoiceKey(key: string): boolean {
  return !isVariableKey(key) && VOICE_KEY.test(key);
}
