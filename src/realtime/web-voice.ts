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

/** An answer begun on an end candidate, waiting for the utterance's final to keep it or not. */
interface AnticipatedTurn {
  utterance: unknown;
  text: string;
  settle(kept: boolean): void;
}

/**
 * What a live session bound to a web conversation is opened with: its finals are the user's words there
 * (`hear`, not awaited: the session's events, such as the next speech_start that interrupts the answer,
 * must keep flowing while the answer is spoken), its speech_start interrupts, and the echo guard.
 *
 * It also anticipates: an end candidate (the speaker paused for LIVE_VAD_ANTICIPATE_MS) starts the answer
 * at once, held back from the windows and the history; the utterance's final with the same words keeps
 * it, anything else (voice coming back, other words) drops it. The answer's first sentence is then often
 * ready when the end of speech is certain.
 */
export function webVoiceBinding(chat: VoiceConversations, interfacePath: string) {
  let anticipated: AnticipatedTurn | undefined;
  const drop = () => {
    anticipated?.settle(false);
    anticipated = undefined;
  };
  const conversation: LiveConversation = {
    partial: (_sessionId, text, metadata) => {
      drop();
      if (metadata.end_candidate !== true) return;
      let settle: (kept: boolean) => void = () => undefined;
      const kept = new Promise<boolean>((resolve) => (settle = resolve));
      anticipated = { utterance: metadata.utterance, text, settle };
      void chat.hear(interfacePath, text, heardTiming(metadata), kept);
    },
    submit: async (_sessionId, text, metadata) => {
      const ahead = anticipated;
      if (ahead !== undefined && ahead.utterance === metadata.utterance && ahead.text === text) {
        ahead.settle(true);
        anticipated = undefined;
        return;
      }
      drop();
      void chat.hear(interfacePath, text, heardTiming(metadata));
    },
  };
  const speechStarted = () => {
    drop();
    chat.interrupt(interfacePath);
  };
  return { conversation, speechStarted, release: drop, minSpeechMs: BARGE_IN_MIN_SPEECH_MS, anticipate: true };
}
