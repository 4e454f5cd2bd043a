import { decimal, flag, integer, list, text } from '../define.ts';

const memory = { group: 'memory' } as const;

/** Long-term memory (plugins/memory): recall before an answer, extraction after it. */
export const memoryVariables = {
  MEMORY_ENABLED: flag(true, { ...memory, description: 'Remember people across conversations and platforms: recall before each answer, learn after it.' }),
  MEMORY_PROMPT_BUDGET: integer(400, {
    ...memory,
    min: 20,
    max: 32_000,
    description: 'Most tokens (counted as 4 characters each) of memories added to the prompt of one answer.',
  }),
  MEMORY_EPISODE_MESSAGES: integer(20, { ...memory, min: 2, max: 1000, description: 'Messages of a conversation summarised into one episode.' }),
  MEMORY_EPISODE_SILENCE_MINUTES: decimal(30, {
    ...memory,
    min: 0.1,
    max: 525_600,
    description: 'Minutes of silence that end a stretch of conversation, which is then summarised into an episode.',
  }),
  MEMORY_FADE_DAYS: decimal(30, {
    ...memory,
    min: 0.1,
    max: 36_500,
    description: 'Days after which a fact or episode not recalled counts half (profile items never fade).',
  }),
  MEMORY_EMBEDDINGS_MODEL: text('', {
    ...memory,
    description: 'Embeddings model on OPENAI_BASE_URL (/embeddings) for recall by meaning too; empty uses full-text search only.',
  }),
  MEMORY_FORGET_COMMANDS: list('/forgetme,forget me', {
    ...memory,
    description: 'Messages with which a person has everything remembered about them deleted, comma-separated.',
  }),
} as const;
