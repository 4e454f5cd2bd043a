/**
 * What of the engine's streaming text a client may see before the reply is parsed: a reply that opens
 * with `{` may be an action list, and a fenced block may hold one, so those parts wait for the chain's
 * verdict (the text its message action delivers). Plain text goes out as it arrives. Each delta costs
 * work in its own length, not in the length of the reply so far.
 */
export class ReplyStream {
  private raw = '';
  private shownText = '';
  /** Where the reply begins after leading blanks in `raw`, or -1 while it is all blank. */
  private start = -1;
  /** An action list or a fence was seen: nothing more goes out until `finish`. */
  private held = false;

  constructor(private readonly emit: (text: string) => void = () => undefined) {}

  /** Everything sent to the client so far. */
  get shown(): string {
    return this.shownText;
  }

  push(delta: string): void {
    // A fence may begin in the last two characters already here.
    const searchFrom = Math.max(this.raw.length - 2, 0);
    this.raw += delta;
    if (this.held) return;
    if (this.start === -1) {
      const first = this.raw.slice(searchFrom).search(/\S/);
      if (first === -1) return;
      this.start = searchFrom + first;
      if (this.raw[this.start] === '{') {
        this.held = true;
        return;
      }
    }
    const fence = this.raw.indexOf('```', Math.max(searchFrom, this.start));
    if (fence !== -1) this.held = true;
    // One or two trailing backticks may be the start of a fence.
    const end = fence !== -1 ? fence : this.raw.length - (this.raw.endsWith('``') ? 2 : this.raw.endsWith('`') ? 1 : 0);
    const from = this.start + this.shownText.length;
    if (end > from) this.send(this.raw.slice(from, end));
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
