import type { ComponentRegistry } from '../components/registry.ts';
import type { LlmState } from '../components/status.ts';
import type { CortexInstance } from '../components/contract.ts';
import { unknownEngineText, type EngineCatalogue, type EngineChoice } from '../config/engine-choices.ts';
import type { ConfigStore } from '../config/store.ts';

export const NO_ENGINE_NOTICE =
  'No language model is configured, so I cannot answer yet. Set CORTEX_ENGINE (openai or manual) in the settings, or choose an engine on the components tab.';

export class UnknownEngineError extends Error {}
export class EngineNotLoadedError extends Error {}

/**
 * Which Cortex engine answers: CORTEX_ENGINE. The engine chosen with `POST /api/components/cortex` is
 * saved as CORTEX_ENGINE, like any entry of the configuration page, so it survives a restart.
 */
export class CortexSelector {
  /** The Cortex engines discovered, loaded or not. */
  readonly engines: EngineCatalogue;

  constructor(
    private readonly registry: ComponentRegistry,
    private readonly config: ConfigStore,
  ) {
    this.engines = {
      kind: 'Cortex',
      names: () => registry.list('cortex').map((entry) => entry.name),
      has: (name) => registry.find(name, 'cortex') !== undefined,
    };
  }

  get name(): string {
    return this.config.get('CORTEX_ENGINE').trim();
  }

  engine(): CortexInstance | undefined {
    return this.name === '' ? undefined : this.registry.engine(this.name);
  }

  /** CORTEX_ENGINE as the start checks it. */
  choice(): EngineChoice {
    return { key: 'CORTEX_ENGINE', name: this.name === '' ? undefined : this.name, none: 'empty for none', engines: this.engines };
  }

  /** Saves the choice as CORTEX_ENGINE; only a loaded engine can be chosen. */
  async select(name: string): Promise<void> {
    const entry = this.registry.find(name, 'cortex');
    if (!entry) throw new UnknownEngineError(`Unknown Cortex engine: ${name}`);
    if (entry.status !== 'loaded') throw new EngineNotLoadedError(`${name} is not loaded${entry.reason ? `: ${entry.reason}` : ''}`);
    await this.config.set('CORTEX_ENGINE', name);
  }

  /** What a message gets instead of an answer while no engine can answer; null while one can. */
  notice(): string | null {
    const name = this.name;
    if (name === '') return NO_ENGINE_NOTICE;
    if (this.engine()) return null;
    const entry = this.registry.find(name, 'cortex');
    const why = entry ? `the Cortex engine "${name}" is not loaded${entry.reason ? ` (${entry.reason})` : ''}` : unknownEngineText({ ...this.choice(), name });
    return `I cannot answer yet: ${why}. Choose an engine on the components tab, or set CORTEX_ENGINE in the settings.`;
  }

  state(): LlmState {
    const active = this.engine() ? this.name : null;
    return { active, configured: this.config.get('CORTEX_ENGINE'), notice: this.notice() };
  }
}
