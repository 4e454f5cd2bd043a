import type { Clock } from '../body/clock.ts';
import type { CompletionPort } from '../components/contract.ts';
import type { ConfigStore } from '../config/store.ts';
import { collectStream } from './collect.ts';
import type { CortexSelector } from './cortex-selector.ts';
import { linkedSignal } from './linked-signal.ts';

/** The host's own background completions on the active Cortex engine, bounded by CORTEX_TIMEOUT_S and the chain's stop. */
export function completionPort(cortex: CortexSelector, config: ConfigStore, stopping: AbortSignal, clock: Clock): CompletionPort {
  return {
    async complete({ messages, interfacePath, responseFormat, signal }) {
      const engine = cortex.engine();
      if (!engine) throw new Error(cortex.notice() ?? 'no Cortex engine is active');
      const seconds = config.get('CORTEX_TIMEOUT_S');
      const linked = linkedSignal([stopping, signal], {
        ms: seconds * 1000,
        reason: () => new Error(`no complete answer within ${seconds} s (CORTEX_TIMEOUT_S)`),
        clock,
      });
      try {
        const text = messages.filter((turn) => turn.role === 'user').at(-1)?.content ?? '';
        return await collectStream(
          engine.generate({
            messages,
            interfacePath,
            message: { senderId: 'anima', senderName: 'Anima', text },
            signal: linked.signal,
            background: true,
            ...(responseFormat ? { responseFormat } : {}),
          }),
          linked.signal,
        );
      } finally {
        linked.dispose();
      }
    },
  };
}
