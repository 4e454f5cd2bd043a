import type { ComponentInstance, CortexDefinition, InterfaceDefinition } from '../components/contract.ts';
import type { ComponentRegistry } from '../components/registry.ts';
import { AppError } from '../errors.ts';
import { COMPAT_INTERFACE, CompatBridge } from './compat-bridge.ts';

/** What the compat interface component (interface/compat) exposes to the compat port's routes. */
export interface CompatInstance extends ComponentInstance {
  bridge: CompatBridge;
}

const isCompatInstance = (instance: ComponentInstance | undefined): instance is CompatInstance =>
  instance !== undefined && 'bridge' in instance && instance.bridge instanceof CompatBridge;

const compatEntry = (registry: ComponentRegistry) =>
  registry.list('interface').find((candidate) => (candidate.definition as InterfaceDefinition | undefined)?.interfaceId === COMPAT_INTERFACE);

export function compatBridgeIfLoaded(registry: ComponentRegistry): CompatBridge | undefined {
  const entry = compatEntry(registry);
  return entry?.status === 'loaded' && isCompatInstance(entry.instance) ? entry.instance.bridge : undefined;
}

/** The loaded compat interface's bridge; 503 with the registry's reason while it is not loaded. */
export function compatBridge(registry: ComponentRegistry): CompatBridge {
  const bridge = compatBridgeIfLoaded(registry);
  if (bridge) return bridge;
  const entry = compatEntry(registry);
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
