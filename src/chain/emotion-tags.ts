import type { EmotionCue } from '../components/contract.ts';
import { TTS_SPEAK } from './dispatch.ts';
import type { ReplyAction } from './parse-reply.ts';

/**
 * Emotion tags in generated text (contract, "Face and voice"): `[em_<name>]` or `[em_<name>:<0..1>]`.
 * They are taken out of the text before anything reads it (a chat, the history, a voice, a stream) and
 * handed to the emotion manager. Whether `<name>` is one of the skin's emotions is the manager's business:
 * every well-formed tag is removed.
 */

export interface EmotionTag {
  name: string;
  /** 0..1 when the tag gave one (clamped), else undefined. */
  intensity: number | undefined;
}

const NAME = '[A-Za-z0-9_-]{1,32}';
/** A whole tag where the scan stands (sticky). */
const TAG = new RegExp(`\\[em_(${NAME})(?::\\s*(\\d+(?:\\.\\d*)?|\\.\\d+))?\\]`, 'y');
/** From where the scan stands to the end, the text is the beginning of a tag not ended yet: held back, not shown. */
const TAG_START = new RegExp(`\\[(?:e(?:m(?:_(?:${NAME}(?::\\s*[0-9.]{0,6})?)?)?)?)?$`, 'y');
/** Held text this long is a tag's beginning for sure: dropped rather than shown when the reply ends there. */
const SURE_START = '[em_';
/** After these (or at the start), the blank that follows a removed tag goes too: "Hi [em_happy] there" reads "Hi there". */
const OPENING = /[\s"'([{]/;

/**
 * Removes tags from text that arrives in pieces. Only a possible tag's beginning is held back (at most a
 * tag's length); every other character goes out with the piece it came in. Each piece costs work in its
 * own length.
 */
export class EmotionTagStripper {
  readonly found: EmotionTag[] = [];
  /** Everything let through so far. */
  text = '';
  private held = '';
  private dropBlank = false;

  /** The part of `delta` (and of what was held) that can be shown now. */
  push(delta: string): string {
    const text = this.held + delta;
    this.held = '';
    let out = '';
    let at = 0;
    while (at < text.length) {
      if (this.dropBlank) {
        if (text[at] === ' ') at += 1;
        this.dropBlank = false;
        continue;
      }
      const open = text.indexOf('[', at);
      if (open === -1) {
        out += text.slice(at);
        break;
      }
      out += text.slice(at, open);
      TAG.lastIndex = open;
      const tag = TAG.exec(text);
      if (tag) {
        this.found.push({ name: tag[1] as string, intensity: tag[2] === undefined ? undefined : Math.min(1, Number(tag[2])) });
        const before = out.at(-1) ?? this.text.at(-1);
        this.dropBlank = before === undefined || OPENING.test(before);
        at = open + tag[0].length;
        continue;
      }
      TAG_START.lastIndex = open;
      if (TAG_START.test(text)) {
        this.held = text.slice(open);
        break;
      }
      out += '[';
      at = open + 1;
    }
    this.text += out;
    return out;
  }

  /** The end of the text: a tag cut off by the end is dropped, a lone `[` or `[e` is text. */
  flush(): string {
    const rest = this.held.startsWith(SURE_START) ? '' : this.held;
    this.held = '';
    this.text += rest;
    return rest;
  }
}

/** The text without its tags, and the tags in the order they came. */
export function stripEmotionTags(text: string): { text: string; tags: EmotionTag[] } {
  const stripper = new EmotionTagStripper();
  stripper.push(text);
  stripper.flush();
  return { text: stripper.text, tags: stripper.found };
}

/** What the emotion manager hears of a reply: its tags, then the `emotion` of each of its `tts_speak` actions. */
export function emotionCues(tags: readonly EmotionTag[], actions: readonly ReplyAction[]): EmotionCue[] {
  const spoken = actions.flatMap((action) =>
    action.type === TTS_SPEAK && typeof action.payload.emotion === 'string' && action.payload.emotion !== ''
      ? [{ name: action.payload.emotion, intensity: undefined, source: 'speech' as const }]
      : [],
  );
  return [...tags.map((tag) => ({ ...tag, source: 'tag' as const })), ...spoken];
}
