import type { ConfigValues, VariableKey } from '../config/schema.ts';

/*
 * The host's ports that the contract's own helpers (typing indicators, polled accounts) use too: apart from
 * the contract, which re-exports them, so those helpers need not import the contract that exports them.
 */

/** Timers on the host's one injectable clock, so tests drive a component's time by hand. */
export interface ClockPort {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A change of one variable, as ConfigPort.onChange reports it. */
export interface ConfigChangeEvent {
  key: string;
  value: unknown;
  previous: unknown;
}

/** The configuration as a component reads it: typed values, and changes until the component stops. */
export interface ConfigPort {
  get<K extends VariableKey>(key: K): ConfigValues[K];
  /** The raw text of any variable (an engine's `<NAME>_VOICE` too), or undefined. */
  raw(key: string): string | undefined;
  /** Calls `listener` on each change of one of `keys`; released by itself when the component stops. */
  onChange(keys: readonly string[], listener: (change: ConfigChangeEvent) => void): void;
}

/** How a component that holds a connection (a chat platform, a station) is doing, shown on the Components page. */
export interface ConnectionReport {
  state: 'connecting' | 'connected' | 'disconnected';
  /** Why it is not connected (a refused token, a retry in 30 s), or who it is connected as. */
  detail?: string;
}
