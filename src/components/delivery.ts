import type { Logger } from 'pino';
import { messageActionOf, type Action, type ActionOrigin } from './messages.ts';
import type { ComponentRegistry, OwnedAction } from './registry.ts';

export type DeliveryResult = { delivered: true } | { delivered: false; reason: string; details?: unknown };

/** Who asked and waits for its answer itself (`awaitsReply`): its conversation's messages go to it. */
export interface Asker {
  take(action: Action): void;
}

export interface DeliveryOptions {
  registry: ComponentRegistry;
  /** The trainer rule: may this sender run an `operatorOnly` action? */
  mayOperate(interfaceId: string, senderId: string): boolean;
  logger: Logger;
}

/**
 * The one path out of the host to a component: every action (a model's reply, a chain notice, speech
 * from Vox) is validated once here, against its schema, its owner's `validatePayload`, the owner being
 * loaded, and the trainer rule, and then handed to its owner, or to the asker when it answers the
 * asker's own conversation and the asker waits for it.
 */
export class Delivery {
  constructor(private readonly options: DeliveryOptions) {}

  async deliver(origin: ActionOrigin, action: Action, asker?: Asker): Promise<DeliveryResult> {
    const owned = this.options.registry.actions().get(action.type);
    if (!owned) {
      const inactive = this.inactiveOwner(action.type);
      return { delivered: false, reason: inactive ? `its component ${inactive} is not loaded` : 'unknown action type' };
    }
    const errors = validate(owned, action.payload);
    if (errors.length > 0) return { delivered: false, reason: 'invalid payload', details: errors };
    if (owned.spec.operatorOnly && !this.options.mayOperate(origin.interfaceId, origin.senderId)) {
      return { delivered: false, reason: 'only an operator (TRAINER_IDS) may ask for it' };
    }
    if (asker && action.type === messageActionOf(origin.interfaceId) && action.payload.interface_path === origin.interfacePath) {
      asker.take(action);
      return { delivered: true };
    }
    try {
      await owned.entry.instance?.handleAction?.(action.type, action.payload, origin);
    } catch (error) {
      return { delivered: false, reason: `failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    return { delivered: true };
  }

  /** Whether a loaded component takes `action` as it is (for a sender choosing among candidate actions). */
  accepts(action: Action): boolean {
    const owned = this.options.registry.actions().get(action.type);
    return owned !== undefined && validate(owned, action.payload).length === 0;
  }

  private inactiveOwner(type: string): string | undefined {
    return this.options.registry.list().find((entry) => entry.status !== 'loaded' && entry.instance?.actions?.[type])?.name;
  }
}

function validate(owned: OwnedAction, payload: Record<string, unknown>): string[] {
  const parsed = owned.spec.schema.safeParse(payload);
  const errors = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`);
  try {
    errors.push(...(owned.entry.instance?.validatePayload?.(owned.type, payload) ?? []));
  } catch (error) {
    errors.push(`validate_payload failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return errors;
}
