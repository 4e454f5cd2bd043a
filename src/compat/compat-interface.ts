import type { CortexDefinition } from '../components/contract.ts';
import type { ComponentRegistry } from '../components/registry.ts';
import { AppError } from '../errors.ts';
import { COMPAT_INTERFACE, type CompatBridge } from './compat-bridge.ts';

/** The host's compat bridge with the component that stands for it (interface/compat). */
export interface CompatHost {
  components: ComponentRegistry;
  compat: CompatBridge;
}

/** The bridge while the compat interface is loaded; 503 with the registry's reason otherwise. */
export function compatBridge(host: CompatHost): CompatBridge {
  const entry = host.components.interfaceEntry(COMPAT_INTERFACE);
  if (entry?.status === 'loaded') return host.compat;
  const reason = entry ? `${entry.status}${entry.reason ? `: ${entry.reason}` : ''}` : 'not installed (interface/compat)';
  throw new AppError(503, 'unavailable', `The compat interface is not loaded (${reason})`);
}

/** The loaded chat engines, each offered as a model. */
export function chatEngines(registry: ComponentRegistry): string[] {
  return registry
    .active('cortex')
    .filter((entry) => (entry.definition as CortexDefinition | undefined)?.engineKind === 'chat')
    .map((entry) => entry.name);
}
