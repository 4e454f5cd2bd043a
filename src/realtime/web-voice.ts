import type { LiveConversation } from '../audio/live/live-plugin.ts';
import type { HeardTiming, WebChat } from '../chat/web-chat.ts';
import { WEBUI_INTERFACE } from '../history/web-session.ts';

/** What a live socket bound to a web conversation needs of the web chat. */
export type VoiceConversations = Pick<WebChat, 'shows' | 'hear' | 'interrupt'>;

/**
 * Voiced audio in a row before a bound session's speech_start (and so its barge-in). The browser's echo
 * canceller does not reliably cover the element Anima speaks through (docs/audio.md), and its residue
 * comes in short bursts; 200 ms of voice is a syllable, still well before the person's first word ends.
 */
export const BARGE_IN_MIN_SPEECH_MS = 200;

/** Only web conversations can be bound: `webui/<session_id>`. */
export const isWebConversation = (path: string) => path.startsWith(`${WEBUI_INTERFACE}/`) && /^[^/\s]+$/.test(path.slice(WEBUI_INTERFACE.length + 1));

/** The timing of a final from its metadata (the built-in engine's UtteranceTiming); empty when the engine gives none. */
export function heardTiming(metadata: Record<string, unknown>, now = performance.now()): HeardTiming {
  const { speech_ended_at: endedAt, voiced_at: voicedAt } = metadata;
  return {
    ...(typeof endedAt === 'number' && endedAt > 0 ? { sttS: Math.max(0, now - endedAt) / 1000 } : {}),
    ...(typeof voicedAt === 'number' && voicedAt > 0 ? { speechEndedAt: voicedAt } : {}),
  };
}

/**
 * What a live session bound to a web conversation is opened with: its finals are the user's words there
 * (`hear`, not awaited: the session's events, such as the next speech_start that interrupts the answer,
 * must keep flowing while the answer is spoken), its speech_start interrupts, and the echo guard.
 */
export function webVoiceBinding(chat: VoiceConversations, interfacePath: string) {
  const conversation: LiveConversation = { submit: async (_sessionId, text, metadata) => void chat.hear(interfacePath, text, heardTiming(metadata)) };
  return { conversation, speechStarted: () => chat.interrupt(interfacePath), minSpeechMs: BARGE_IN_MIN_SPEECH_MS };
}
