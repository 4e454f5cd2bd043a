import { z } from 'zod';
import type { ChatTurn, JsonResponseFormat, Memory } from '../../src/components/contract.ts';

export const LearnedSchema = z.strictObject({
  memories: z
    .array(
      z.strictObject({
        kind: z.enum(['profile', 'fact']),
        topic: z.string().trim().min(1).max(64),
        text: z.string().trim().min(1).max(500),
        importance: z.number().min(0).max(1),
      }),
    )
    .max(10),
});
export type Learned = z.infer<typeof LearnedSchema>;

export const EpisodeSchema = z.strictObject({
  summary: z.string().trim().min(1).max(1000),
  importance: z.number().min(0).max(1),
});
export type Episode = z.infer<typeof EpisodeSchema>;

/** A zod schema as the structured-output format the engine is asked for (no `$schema` key: some servers refuse it). */
function formatOf(name: string, schema: z.ZodType): JsonResponseFormat {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema) as Record<string, unknown>;
  return { name, schema: json };
}

export const LEARNED_FORMAT = formatOf('memories', LearnedSchema);
export const EPISODE_FORMAT = formatOf('episode', EpisodeSchema);

/** The engine's answer as JSON (a fenced block or text around the object tolerated), checked by `schema`; a reason when it is not. */
export function parseAnswer<T>(answer: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reason: string } {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, reason: 'no JSON object in the answer' };
  let json: unknown;
  try {
    json = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, reason: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
}

/** The extraction request for one exchange: what is worth keeping about the sender, given what is known. */
export function extractionPrompt(input: { senderName: string; text: string; reply: string; known: Memory[] }): ChatTurn[] {
  const known = input.known.map((memory) => `- [${memory.topic ?? 'no topic'}] (${memory.kind}) ${memory.text}`).join('\n');
  const system = [
    `You keep the long-term memory of Anima, a companion. From the exchange below, pick what is worth remembering about ${input.senderName} for later conversations.`,
    '- profile: lasting facts about them (name, family, home, work, languages, lasting likes and dislikes).',
    '- fact: things learned that may change (plans, projects, events, recent news, opinions).',
    'Each item: kind; topic, a short snake_case key of what it is about (sister_name, instrument); text, one self-contained sentence naming the person;',
    'importance from 0 (trivia) to 1 (essential). When an item updates or contradicts a known one, reuse its topic.',
    'Skip small talk, what Anima said about itself, and what is already known unchanged.',
    'Answer with JSON only: {"memories": [...]}, an empty list when nothing is worth keeping.',
    known ? `Already known:\n${known}` : 'Nothing is known yet.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `${input.senderName}: ${input.text}\nAnima: ${input.reply}` },
  ];
}

/** The summary request for a finished stretch of one conversation. */
export function episodePrompt(lines: readonly string[]): ChatTurn[] {
  return [
    {
      role: 'system',
      content:
        "Summarise this stretch of conversation for Anima's long-term memory in one to three sentences: who talked, about what, " +
        'and anything promised or left open. importance from 0 (small talk) to 1 (something to bring up again). ' +
        'Answer with JSON only: {"summary": "...", "importance": 0.5}.',
    },
    { role: 'user', content: lines.join('\n') },
  ];
}
