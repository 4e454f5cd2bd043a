import { z } from 'zod';
import type { ActionSpec } from '../components/contract.ts';
import type { Asker, Delivery } from '../components/delivery.ts';
import { messageActionOf, type ActionOrigin, type DispatchReport } from '../components/messages.ts';
import type { Logger } from '../logging.ts';
import type { ParsedReply, ReplyAction } from './parse-reply.ts';
import type { SpeechHook } from './speech.ts';

export const TTS_SPEAK = 'tts_speak';
export const MERGED_TEXT = '__merged_text';

const TtsPayloadSchema = z.object({
  text: z.string().min(1),
  emotion: z.string().optional(),
  interface_path: z.string().optional(),
  [MERGED_TEXT]: z.string().optional(),
});

/** tts_speak as the model sees it while a speech engine is registered. */
export const ttsSpeakSpec: ActionSpec = {
  schema: TtsPayloadSchema.omit({ [MERGED_TEXT]: true, interface_path: true }),
  brief: 'Say something aloud with the avatar voice; put the same words in a message action to get one captioned audio message.',
  examples: [{ text: 'Good morning!', emotion: 'happy' }],
};

export interface DispatchDependencies {
  delivery: Delivery;
  /** The asker, when it takes its own conversation's messages itself. */
  asker: Asker | undefined;
  speech: SpeechHook | undefined;
  saveOwn(interfacePath: string, text: string): Promise<void>;
  logger: Logger;
}

const isMessageAction = (type: string) => type.startsWith('message_');
const pathOf = (action: ReplyAction) => (typeof action.payload.interface_path === 'string' ? action.payload.interface_path : undefined);

/** Plain reply text becomes the origin's message action; an action without a path answers the origin. */
function withDefaults(reply: ParsedReply, origin: ActionOrigin): ReplyAction[] {
  const own = messageActionOf(origin.interfaceId);
  const actions = reply.text === '' ? [...reply.actions] : [{ type: own, payload: { text: reply.text } }, ...reply.actions];
  return actions.map((action) =>
    (action.type === own || action.type === TTS_SPEAK) && pathOf(action) === undefined
      ? { ...action, payload: { ...action.payload, interface_path: origin.interfacePath } }
      : action,
  );
}

/**
 * A tts_speak next to message actions of the same conversation takes their text as `__merged_text`
 * (one captioned audio message) and the duplicate text messages are dropped.
 */
export function mergeSpeech(actions: ReplyAction[]): ReplyAction[] {
  const speech = actions.find((action) => action.type === TTS_SPEAK);
  if (!speech) return actions;
  const merged = actions.filter((action) => isMessageAction(action.type) && pathOf(action) === pathOf(speech) && typeof action.payload.text === 'string');
  if (merged.length === 0) return actions;
  const text = merged.map((action) => action.payload.text as string).join('\n');
  return actions
    .filter((action) => !merged.includes(action))
    .map((action) => (action === speech ? { ...action, payload: { ...action.payload, [MERGED_TEXT]: text } } : action));
}

/** Delivers each action of a reply (validated by the delivery); a refused one is logged and skipped. */
export async function dispatchReply(reply: ParsedReply, origin: ActionOrigin, deps: DispatchDependencies): Promise<DispatchReport> {
  const report: DispatchReport = { dispatched: [], skipped: [] };
  const skip = (type: string, reason: string, details?: unknown) => {
    report.skipped.push({ type, reason });
    deps.logger.warn({ action: type, details, interface_path: origin.interfacePath }, `action skipped: ${reason}`);
  };
  for (const entry of reply.rejected) skip('(malformed)', 'not a {type, payload} object', entry);

  const run = async (action: ReplyAction): Promise<boolean> => {
    const result = await deps.delivery.deliver(origin, action, deps.asker);
    if (!result.delivered) {
      skip(action.type, result.reason, result.details);
      return false;
    }
    report.dispatched.push(action.type);
    if (isMessageAction(action.type)) await deps.saveOwn(pathOf(action) ?? origin.interfacePath, String(action.payload.text));
    return true;
  };

  for (const action of mergeSpeech(withDefaults(reply, origin))) {
    if (action.type !== TTS_SPEAK) {
      await run(action);
      continue;
    }
    const payload = TtsPayloadSchema.safeParse(action.payload);
    if (!payload.success) {
      skip(TTS_SPEAK, 'invalid payload', payload.error.issues);
      continue;
    }
    const { text, emotion, interface_path: path = origin.interfacePath, [MERGED_TEXT]: mergedText } = payload.data;
    const result = deps.speech
      ? await deps.speech.speak({ text, emotion, interfacePath: path, interfaceId: origin.interfaceId, mergedText }).catch(() => ({ status: 'error' as const }))
      : undefined;
    if (result && result.status !== 'error') {
      report.dispatched.push(TTS_SPEAK);
      await deps.saveOwn(path, mergedText ?? text);
      continue;
    }
    // No speech engine, or it failed: the caption (or the words) still reach the conversation as text.
    deps.logger.info({ interface_path: path, speech: result?.status ?? 'none' }, 'tts_speak delivered as text');
    if (await run({ type: messageActionOf(origin.interfaceId), payload: { text: mergedText ?? text, interface_path: path } }))
      report.dispatched.push(TTS_SPEAK);
  }
  return report;
}
