import type { InterfaceDefinition } from '../components/contract.ts';
import type { ComponentRegistry } from '../components/registry.ts';
import type { ConfigStore } from '../config/store.ts';

/** Who may run sensitive operations (attention commands, `operatorOnly` actions), and who is exempt from the rate limit. */
export interface OperatorRule {
  isTrainer(interfaceId: string, senderId: string): boolean;
  mayOperate(interfaceId: string, senderId: string): boolean;
}

const ids = (value: string | undefined) => (value ?? '').split(',').flatMap((id) => (id.trim() === '' ? [] : [id.trim()]));

/**
 * Trainers are `<interface_id>:<user_id>` entries of TRAINER_IDS, plus the user ids in an interface's own
 * `trainerVariable` (TELEGRAM_TRAINER_ID). The senders of an `operatorSenders` interface (the local web UI)
 * always operate. On a chat platform (`chatPlatform`) anyone may write, so only
 * trainers operate there, none while none is named. Elsewhere the senders already passed the process's
 * trust check (the web UI), so an empty TRAINER_IDS leaves operations open to them: a fresh installation
 * is usable before an operator is named.
 */
export function operatorRule(config: ConfigStore, registry: ComponentRegistry): OperatorRule {
  const definitionOf = (interfaceId: string) => registry.interfaceEntry(interfaceId)?.definition as InterfaceDefinition | undefined;
  const isTrainer = (interfaceId: string, senderId: string) => {
    const own = definitionOf(interfaceId)?.trainerVariable;
    return config.get('TRAINER_IDS').includes(`${interfaceId}:${senderId}`) || (own !== undefined && ids(config.rawValue(own)).includes(senderId));
  };
  return {
    isTrainer,
    mayOperate: (interfaceId, senderId) => {
      const definition = definitionOf(interfaceId);
      if (definition?.operatorSenders === true || isTrainer(interfaceId, senderId)) return true;
      return definition?.chatPlatform !== true && config.get('TRAINER_IDS').length === 0;
    },
  };
}
