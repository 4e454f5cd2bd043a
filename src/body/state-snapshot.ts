import { createHash } from 'node:crypto';
import type { AnimationView, PlayingAudio, VrmModel } from './messages.ts';

/** A JSON text and its strong entity tag (quoted, as the ETag header carries it). */
export interface TaggedJson {
  readonly json: string;
  readonly etag: string;
}

/** The full state as it stands between two changes: the speech audio without its moving offset. */
export interface StateParts {
  vrm_model: VrmModel | null;
  animation: AnimationView;
  face_values: Record<string, number>;
  audio: PlayingAudio | null;
}

/** A tag names one text whatever process made it; a change counter would repeat its tags after a restart. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 27);
}

/** Reads the snapshot: `offset` gives the seconds of speech played so far, and is asked only while speech plays. */
export type StateSnapshot = (offset: () => number) => TaggedJson;

/**
 * The full body state (`{vrm_model, animation, face_values, audio}`) serialised once, then served as it is to
 * every reader until the next change. Speech's `offset_s` is the one value that moves with the clock: it is
 * the last field of the last part, so the text before it is kept and each read writes the offset in (the
 * tag carries it too: a new offset is a new representation). The text equals `JSON.stringify` of the same
 * state, byte for byte.
 */
export function snapshotState({ vrm_model, animation, face_values, audio }: StateParts): StateSnapshot {
  const head = `{"vrm_model":${JSON.stringify(vrm_model)},"animation":${JSON.stringify(animation)},"face_values":${JSON.stringify(face_values)},"audio":`;
  if (audio === null) {
    const json = `${head}null}`;
    const fixed = { json, etag: `"${digest(json)}"` };
    return () => fixed;
  }
  const beforeOffset = `${head}${JSON.stringify(audio).slice(0, -1)},"offset_s":`;
  const tag = digest(beforeOffset);
  return (offset) => {
    const value = JSON.stringify(offset());
    return { json: `${beforeOffset}${value}}}`, etag: `"${tag}.${value}"` };
  };
}
