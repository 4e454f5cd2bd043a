import type { ClockPort } from '../../src/components/contract.ts';

/** A finished stretch of one conversation, ready to be summarised into an episode. */
export interface FinishedStretch {
  path: string;
  lines: string[];
  /** The one person who talked in it, or null when several did. */
  personId: number | null;
}

interface Stretch {
  lines: string[];
  people: Set<number>;
  silence: unknown;
}

export interface StretchLimits {
  /** Messages (each side's counts) that make a stretch. */
  messages: number;
  silenceMs: number;
}

/** Longest line kept of one message: a summary needs the gist, not a pasted document. */
const MAX_LINE = 500;

/**
 * The open stretch of each conversation, in memory: it ends after `messages` messages, or after
 * `silenceMs` without a new exchange (a timer on the components' clock), and goes to `finished`. What is
 * open is lost at a restart; a summary is a convenience, not a record (the chat history is that).
 */
export class Stretches {
  private readonly open = new Map<string, Stretch>();

  constructor(
    private readonly clock: ClockPort,
    private readonly finished: (stretch: FinishedStretch) => void,
  ) {}

  add(path: string, exchange: { personId: number; lines: string[] }, limits: StretchLimits): void {
    const stretch = this.open.get(path) ?? { lines: [], people: new Set<number>(), silence: undefined };
    this.open.set(path, stretch);
    stretch.lines.push(...exchange.lines.map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line)));
    stretch.people.add(exchange.personId);
    this.clock.clearTimeout(stretch.silence);
    if (stretch.lines.length >= limits.messages) this.close(path);
    else stretch.silence = this.clock.setTimeout(() => this.close(path), limits.silenceMs);
  }

  /** Drops what is open of this person's stretches (they asked to be forgotten). */
  forget(personId: number): void {
    for (const [path, stretch] of this.open) if (stretch.people.has(personId)) this.drop(path, stretch);
  }

  /** Drops every open stretch and its timer (the plugin stops). */
  stop(): void {
    for (const [path, stretch] of this.open) this.drop(path, stretch);
  }

  private drop(path: string, stretch: Stretch): void {
    this.clock.clearTimeout(stretch.silence);
    this.open.delete(path);
  }

  private close(path: string): void {
    const stretch = this.open.get(path);
    if (!stretch) return;
    this.drop(path, stretch);
    const [only] = stretch.people;
    this.finished({ path, lines: stretch.lines, personId: stretch.people.size === 1 && only !== undefined ? only : null });
  }
}
