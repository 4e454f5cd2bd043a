/**
 * What of the engine's streaming text a client may see before the reply is parsed: a reply that opens
 * with `{` may be an action list, and a fenced block may hold one, so those parts wait for the chain's
 * verdict (the text its message action delivers). Plain text goes out as it arrives. Each delta costs
 * work in its own length, not in the length of the reply so far.
 */
export class ReplyStream {
  private shownText = '';
  /** Trailing backticks not sent yet (at most two): a fence may begin with them. */
  private tail = '';
  /** A non-blank character arrived: leading blanks are dropped until then. */
  private started = false;
  /** An action list or a fence was seen: nothing more goes out until `finish`. */
  private held = false;

  constructor(private readonly emit: (text: string) => void = () => undefined) {}

  /** Everything sent to the client so far. */
  get shown(): string {
    return this.shownText;
  }

  push(delta: string): void {
    if (this.held) return;
    // Only the held-back backticks and the delta are read: the reply so far is never searched again.
    let text = this.tail + delta;
    this.tail = '';
    if (!this.started) {
      const first = text.search(/\S/);
      if (first === -1) return;
      this.started = true;
      text = text.slice(first);
      if (text[0] === '{') {
        this.held = true;
        return;
      }
    }
    const fence = text.indexOf('```');
    if (fence !== -1) this.held = true;
    // One or two trailing backticks may be the start of a fence.
    const end = fence !== -1 ? fence : text.length - (text.endsWith('``') ? 2 : text.endsWith('`') ? 1 : 0);
    if (fence === -1) this.tail = text.slice(end);
    if (end > 0) this.send(text.slice(0, end));
  }

  /** The delivered reply: its rest is sent when it continues what was shown (it does, but for actions). */
  finish(delivered: string): void {
    if (delivered.length > this.shownText.length && delivered.startsWith(this.shownText)) this.send(delivered.slice(this.shownText.length));
  }

  private send(text: string): void {
    this.shownText += text;
    this.emit(text);
  }
}
