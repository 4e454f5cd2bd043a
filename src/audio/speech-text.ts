/**
 * Pictographs, emoji modifiers, keycaps, flags and the joiners between them: a speech engine reads
 * them aloud as names ("smiling face") or chokes on them, and they carry no words.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each joiner, variation selector and keycap mark goes on its own, as intended.
const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{FE0F}\u{200D}\u{20E3}]/gu;

/** The spec's text cleaning before synthesis: emoji removed, whitespace collapsed, ends trimmed. */
export function cleanSpeechText(text: string): string {
  return text.replace(EMOJI, ' ').replace(/\s+/g, ' ').trim();
}
