import { byName } from './skin-files.ts';

export const DEFAULT_PRIORITIES: Readonly<Record<string, number>> = { idle: 0, write: 3, talk: 5, think: 10 };
/** The spec's states table marks these "Loop: yes": they last while a context holds them. Other states play once. */
const LOOPING_STATES: ReadonlySet<string> = new Set(Object.keys(DEFAULT_PRIORITIES));
/** The state speech audio holds: the watchdog leaves it alone while the audio plays. */
export const SPEAKING_STATE = 'talk';

/** A state name nobody registered; routes answer 400 listing the known states. */
export class UnknownStateError extends Error {
  constructor(
    readonly state: string,
    readonly known: string[],
  ) {
    super(`Unknown state "${state}"; known states: ${known.join(', ')}`);
    this.name = 'UnknownStateError';
  }
}

/** The logical states, their priorities, and the aliases plugins register for them. */
export class StateRegistry {
  private readonly priorities = new Map(Object.entries(DEFAULT_PRIORITIES));
  private readonly aliases = new Map<string, string>();

  registerPriority(state: string, priority: number): void {
    if (!Number.isInteger(priority)) throw new RangeError(`The priority of ${state} must be an integer`);
    this.priorities.set(state, priority);
  }

  /** Maps each alias to a state; an alias never shadows a real state. */
  registerAliases(aliases: Record<string, string>): void {
    for (const [alias, state] of Object.entries(aliases)) {
      if (!this.priorities.has(state)) throw new UnknownStateError(state, this.known());
      if (!this.priorities.has(alias)) this.aliases.set(alias, state);
    }
  }

  /** The state a name means, or throws UnknownStateError. */
  resolve(name: string): string {
    if (this.priorities.has(name)) return name;
    const target = this.aliases.get(name);
    if (target !== undefined) return target;
    throw new UnknownStateError(name, this.known());
  }

  priority(state: string): number {
    return this.priorities.get(state) ?? 0;
  }

  /** Whether the state loops when the caller does not say: idle, think, write and talk do, plugin states play once. */
  loops(state: string): boolean {
    return LOOPING_STATES.has(state);
  }

  /** Real states and aliases, in name order. */
  known(): string[] {
    return [...this.priorities.keys(), ...this.aliases.keys()].sort(byName);
  }
}
