import type { ComponentRegistry } from '../components/registry.ts';
import type { LlmState } from '../components/status.ts';
import type { CortexInstance } from '../components/contract.ts';
import type { ConfigStore } from '../config/store.ts';

export const NO_ENGINE_NOTICE =
  'No language model is configured, so I cannot answer yet. Set CORTEX_ENGINE (openai or manual) in the settings, or choose an engine on the components tab.';

export class UnknownEngineError extends Error {}
export class EngineNotLoadedError extends Error {}

/**
 * Which Cortex engine answers: CORTEX_ENGINE at start (and whenever it is saved), or the engine chosen
 * with `POST /api/components/cortex`, which lasts until the next restart or configuration change.
 */
export class CortexSelector {
  private chosen: string | undefined;
  private readonly onChange = ({ key }: { key: string }) => {
    if (key === 'CORTEX_ENGINE') this.chosen = undefined;
  };

  constructor(
    private readonly registry: ComponentRegistry,
    private readonly config: ConfigStore,
  ) {
    config.on('change', this.onChange);
  }

  stop(): void {
    this.config.off('change', this.onChange);
  }

  get name(): string {
    return (this.chosen ?? this.config.get('CORTEX_ENGINE')).trim();
  }

  engine(): CortexInstance | undefined {
    return this.name === '' ? undefined : this.registry.engine(this.name);
  }

  select(name: string): void {
    const entry = this.registry.find(name, 'cortex');
    if (!entry) throw new UnknownEngineError(`Unknown Cortex engine: ${name}`);
    if (entry.status !== 'loaded') throw new EngineNotLoadedError(`${name} is not loaded${entry.reason ? `: ${entry.reason}` : ''}`);
    this.chosen = name;
  }

  state(): LlmState {
    const name = this.name;
    const active = this.engine() ? name : null;
    let notice: string | null = null;
    if (name === '') notice = NO_ENGINE_NOTICE;
    else if (!active)
      notice = `The Cortex engine "${name}" is ${this.registry.find(name, 'cortex') ? 'not loaded' : 'unknown'}; messages get the no-language-model notice.`;
    return { active, configured: this.config.get('CORTEX_ENGINE'), notice };
  }
}
