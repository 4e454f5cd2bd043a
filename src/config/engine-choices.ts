import type { VariableKey } from './schema.ts';
import { StartStepError } from './start-fallback.ts';

/** The engines of one kind that exist in this process (Cortex engines discovered, Vox engines registered...). */
export interface EngineCatalogue {
  kind: string;
  names(): string[];
  /** Whether `name` names one of them (an alias counts). */
  has(name: string): boolean;
}

/** A variable that names an engine; `name` undefined when it names none. */
export interface EngineChoice {
  key: VariableKey;
  name: string | undefined;
  /** What to write for no engine, as the end of "or ...": `empty for none`, `disabled`. */
  none: string;
  engines: EngineCatalogue;
}

/**
 * `CORTEX_ENGINE is "gpt4", which names no Cortex engine (the engines that exist: manual, openai; or empty
 * for none)`: the start refuses with it and the chat's notice says it, so both name the variable and the way out.
 */
export function unknownEngineText(choice: EngineChoice & { name: string }): string {
  const known = [...choice.engines.names()].sort();
  const listed = `${known.length > 0 ? known.join(', ') : 'none'}; or ${choice.none}`;
  return `${choice.key} is "${choice.name}", which names no ${choice.engines.kind} engine (the engines that exist: ${listed})`;
}

const isUnknown = (choice: EngineChoice): choice is EngineChoice & { name: string } => choice.name !== undefined && !choice.engines.has(choice.name);

/** Stops the start when a variable names an engine that does not exist; the message names every such variable. */
export function refuseUnknownEngines(choices: readonly EngineChoice[]): void {
  const unknown = choices.filter(isUnknown);
  if (unknown.length === 0) return;
  throw new StartStepError(
    [...new Set(unknown.map((choice) => choice.key))],
    `${unknown.map(unknownEngineText).join('. ')}. Fix it in .env or the environment (see .env.example).`,
  );
}
