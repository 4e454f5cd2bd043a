import type { ClockPort } from './ports.ts';

/** After this long an answer is noticeably slow, so the platform shows "typing…"; an instant one never waits for it. */
const TYPING_DELAY_MS = 1000;
/** Discord-style platforms show "typing…" for about 10 s per request, so it is repeated a little sooner. */
const DISCORD_REPEAT_MS = 8000;

/** The "typing…" indicators a chat platform is showing, each repeated until its answer is out. */
export class TypingIndicators {
  private readonly active = new Set<() => void>();

  /**
   * On the host's clock (the components' `clock` service), so tests move the indicators' time by hand;
   * `repeatMs`: a little less than the platform shows one indicator for.
   */
  constructor(
    private readonly clock: ClockPort,
    private readonly repeatMs = DISCORD_REPEAT_MS,
  ) {}

  /** Calls `show` once the answer has taken a second, then every `repeatMs`, until the returned function is called. */
  start(show: () => void): () => void {
    const { clock, repeatMs } = this;
    const repeat = () => {
      show();
      timer = clock.setTimeout(repeat, repeatMs);
    };
    let timer = clock.setTimeout(repeat, TYPING_DELAY_MS);
    const stop = () => {
      clock.clearTimeout(timer);
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
