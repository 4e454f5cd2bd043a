/** Sentence ends: `. ! ? …` (and runs of them), and the CJK `。！？`, which need no space after them. */
const LATIN_END = /[.!?…]/;
const CJK_END = /[。！？]/;
/** Closing quotes and brackets stay with the sentence they end. */
const CLOSERS = /["'”’)\]»」』]/;
/** Abbreviations whose full stop ends no sentence (compared lower-case, without the stop). */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'no', 'approx', 'cf', 'fig']);
/** A run without a sentence end is cut after about this many characters, at a comma or a space. */
export const LONG_RUN_CHARS = 200;

/**
 * Cuts a text that arrives in pieces into sentences as soon as each is complete, so speech can start
 * before the whole text exists. A full stop counts only once the next character shows it ends a sentence
 * (a space or a line break, not "3.5"), and not after a known abbreviation ("e.g.", "Mr.").
 */
export class SentenceSplitter {
  private buffer = '';

  /** Appends a piece; returns the sentences it completed (trimmed, never empty). */
  push(piece: string): string[] {
    this.buffer += piece;
    const sentences: string[] = [];
    for (let cut = this.nextCut(); cut !== undefined; cut = this.nextCut()) {
      const sentence = this.buffer.slice(0, cut).trim();
      this.buffer = this.buffer.slice(cut);
      if (sentence !== '') sentences.push(sentence);
    }
    return sentences;
  }

  /** The text is complete: whatever remains is the last sentence (undefined when only spaces remain). */
  flush(): string | undefined {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest === '' ? undefined : rest;
  }

  /** The text not yet part of a sentence. */
  get pending(): string {
    return this.buffer;
  }

  /** Where the first complete sentence of the buffer ends, or undefined while none is. */
  private nextCut(): number | undefined {
    const text = this.buffer;
    for (let i = 0; i < text.length; i += 1) {
      const char = text[i] as string;
      if (char === '\n') return i + 1;
      if (CJK_END.test(char)) return this.afterClosers(i + 1);
      if (!LATIN_END.test(char)) continue;
      let end = i + 1;
      while (end < text.length && LATIN_END.test(text[end] as string)) end += 1;
      end = this.afterClosers(end);
      if (end >= text.length) return undefined; // what follows decides
      if (!/\s/.test(text[end] as string)) {
        i = end - 1;
        continue;
      }
      if (char === '.' && this.isAbbreviation(i)) continue;
      return end;
    }
    return text.length > LONG_RUN_CHARS ? this.longRunCut(text) : undefined;
  }

  private afterClosers(from: number): number {
    let end = from;
    while (end < this.buffer.length && CLOSERS.test(this.buffer[end] as string)) end += 1;
    return end;
  }

  /** The word before the full stop at `dot` is a known abbreviation ("e.g", "Mr"). */
  private isAbbreviation(dot: number): boolean {
    const before = this.buffer.slice(0, dot);
    const word = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase();
    return word !== undefined && (ABBREVIATIONS.has(word) || /^(\p{L}\.)+\p{L}$/u.test(word));
  }

  /** A long run without an end: cut after its last comma, else its last space, within the first LONG_RUN_CHARS. */
  private longRunCut(text: string): number | undefined {
    const head = text.slice(0, LONG_RUN_CHARS);
    const comma = Math.max(head.lastIndexOf(','), head.lastIndexOf('，'), head.lastIndexOf('、'));
    if (comma > 0) return comma + 1;
    const space = head.search(/\s\S*$/);
    return space > 0 ? space + 1 : LONG_RUN_CHARS;
  }
}
