/** After this long an answer is noticeably slow, so the platform shows "typing…"; an instant one never waits for it. */
const TYPING_DELAY_MS = 1000;
/** Discord-style platforms show "typing…" for about 10 s per request, so it is repeated a little sooner. */
const TYPING_REPEAT_MS = 8000;

/** The "typing…" indicators a chat platform is showing, each repeated until its answer is out. */
export class TypingIndicators {
  private readonly active = new Set<() => void>();

  /** Calls `show` once the answer has taken a second, then every 8 s, until the returned function is called. */
  start(show: () => void): () => void {
    let timer = setTimeout(() => {
      show();
      timer = setInterval(show, TYPING_REPEAT_MS);
    }, TYPING_DELAY_MS);
    const stop = () => {
      clearTimeout(timer);
      this.active.delete(stop);
    };
    this.active.add(stop);
    return stop;
  }

  /** Ends every indicator (the platform's bot stops). */
  stopAll(): void {
    for (const stop of this.active) stop();
  }
}
