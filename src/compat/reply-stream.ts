/**
 * What of the engine's streaming text a client may see before the reply is parsed: a reply that opens
 * with `{` may be an action list, and a fenced block may hold one, so those parts wait for the chain's
 * verdict (the text its message action delivers). Plain text goes out as it arrives.
 */
export class ReplyStream {
  private raw = '';
  private shownText = '';

  constructor(private readonly emit: (text: string) => void = () => undefined) {}

  /** Everything sent to the client so far. */
  get shown(): string {
    return this.shownText;
  }

  push(delta: string): void {
    this.raw += delta;
    this.show(safePrefix(this.raw));
  }

  /** The delivered reply: its rest is sent when it continues what was shown (it does, but for actions). */
  finish(delivered: string): void {
    this.show(delivered);
  }

  private show(text: string): void {
    if (text.length <= this.shownText.length || !text.startsWith(this.shownText)) return;
    const delta = text.slice(this.shownText.length);
    this.shownText = text;
    this.emit(delta);
  }
}

function safePrefix(raw: string): string {
  const text = raw.trimStart();
  if (text.startsWith('{')) return '';
  const fence = text.indexOf('```');
  // One or two trailing backticks may be the start of a fence.
  return fence === -1 ? text.replace(/`{1,2}$/, '') : text.slice(0, fence);
}
