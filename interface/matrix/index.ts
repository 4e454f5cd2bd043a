import { defineInterface } from '../../src/components/contract.ts';
import { actions, validatePayload } from './actions.ts';
import type { Bridge } from './bridge.ts';
import { INTERFACE_ID } from './paths.ts';
import { ACCOUNT_KEYS, voxFolderOf } from './settings.ts';

/**
 * Matrix: the companion in rooms and threads of a homeserver (`matrix/<room_id>`,
 * `matrix/<room_id>/<thread_root_event_id>`), through matrix-js-sdk. The SDK is loaded when the interface
 * starts, so a deployment without Matrix never pays for it; a change of the account's variables signs in
 * again without a restart.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Matrix rooms and threads (MATRIX_HOMESERVER): messages, voice messages in and out, pictures and files.',
  requiredConfig: ['MATRIX_HOMESERVER', 'MATRIX_USER_ID', ['MATRIX_PASSWORD', 'MATRIX_ACCESS_TOKEN']],
  needs: ['chain', 'voice', 'clock'],
  chatPlatform: true,
  create: (context) => {
    let bridge: Bridge | undefined;
    let changing: Promise<void> = Promise.resolve();
    /** Replaces the running account with the configured one; changes are applied one at a time. */
    const reconnect = () => {
      const replaced = changing.then(async () => {
        await bridge?.stop();
        bridge = undefined;
        const { Bridge } = await import('./bridge.ts');
        bridge = new Bridge(context);
        bridge.start();
      });
      changing = replaced.catch((error: unknown) => context.logger.error({ err: error }, 'the Matrix interface could not reconnect'));
      return replaced;
    };
    return {
      actions,
      validatePayload: (_type, payload) => validatePayload(payload, voxFolderOf(context)),
      handleAction: (type, payload, origin) => {
        if (!bridge) throw new Error('Matrix is not connected');
        return bridge.deliver(type, payload, origin);
      },
      async start() {
        // A failure at start shows the interface FAILED; a later one is logged and the next change tries again.
        context.config.onChange(ACCOUNT_KEYS, () => void reconnect().catch(() => undefined));
        await reconnect();
      },
      async stop() {
        await changing;
        await bridge?.stop();
        bridge = undefined;
      },
    };
  },
});
