import { z } from 'zod';
import { LipsyncSchema, type Lipsync } from '../lipsync.ts';

/**
 * The contract's web UI frame for speech: the browser re-dispatches it as `app:tts-play` (and `app:lipsync`).
 * One piece (a sentence) of an utterance: the pieces of one reply share `utterance_id`, count `seq` from 0
 * and the final one has `last`; the page plays them in order, without gaps.
 */
export const TtsPlayMessageSchema = z.object({
  type: z.literal('tts_play'),
  url: z.string(),
  audio_duration_s: z.number(),
  lipsync: LipsyncSchema.nullable(),
  text: z.string(),
  utterance_id: z.string(),
  seq: z.number().int().min(0),
  last: z.boolean(),
});
export type TtsPlayMessage = z.infer<typeof TtsPlayMessageSchema>;

/** Where a piece sits in its utterance. */
export interface UtterancePlace {
  utteranceId: string;
  seq: number;
  last: boolean;
}

/** One synthesised utterance on its way to a conversation. */
export interface SpokenAudio {
  interfacePath: string;
  url: string;
  /** Absolute path of the WAV file, for interfaces that upload the file itself. */
  path: string;
  wav: Uint8Array;
  durationS: number;
  lipsync: Lipsync | null;
  /** The caption: the merged message text, else the spoken text. */
  text: string;
}

export const ttsPlayMessage = (audio: Pick<SpokenAudio, 'url' | 'durationS' | 'lipsync' | 'text'>, place: UtterancePlace): TtsPlayMessage => ({
  type: 'tts_play',
  url: audio.url,
  audio_duration_s: audio.durationS,
  lipsync: audio.lipsync,
  text: audio.text,
  utterance_id: place.utteranceId,
  seq: place.seq,
  last: place.last,
});

/** Where an interface's speech goes. Both resolve false when the conversation could not be reached. */
export interface SpeechOutlet {
  audio(audio: SpokenAudio): Promise<boolean>;
  text(interfacePath: string, text: string): Promise<boolean>;
}

/**
 * Outlets by interface id (`webui`, `live`, `telegram` ...). A registered outlet wins; otherwise the
 * fallback (the chain adapter's: the interface component's own actions) is used.
 */
export class SpeechOutlets {
  private readonly outlets = new Map<string, SpeechOutlet>();
  private fallback: SpeechOutlet | undefined;

  register(interfaceId: string, outlet: SpeechOutlet): () => void {
    this.outlets.set(interfaceId, outlet);
    return () => {
      if (this.outlets.get(interfaceId) === outlet) this.outlets.delete(interfaceId);
    };
  }

  setFallback(outlet: SpeechOutlet | undefined): void {
    this.fallback = outlet;
  }

  for(interfaceId: string): SpeechOutlet | undefined {
    return this.outlets.get(interfaceId) ?? this.fallback;
  }
}
