import type { z } from 'zod';
import { type ActionOrigin, defineInterface } from '../../src/components/contract.ts';
import { actions, FILE_ACTION, FilePayloadSchema, fileUrlOf, MEDIA_ACTION, MediaPayloadSchema, MessagePayloadSchema, validatePayload } from './actions.ts';
import { FluxerConnection } from './connection.ts';
import { type FluxerOrigin, messageHandler } from './incoming.ts';
import { FluxerSender } from './outgoing.ts';
import { conversationOf, INTERFACE_ID } from './paths.ts';
import { allowedFoldersOf, CONNECTION_KEYS, settingsOf, sharedFolderOf } from './settings.ts';

/** In a guild the answer replies to the message it answers, so everyone sees whom the bot is talking to. */
function replyTo(origin: ActionOrigin | undefined, path: string): string | undefined {
  const fluxer = origin?.interfacePath === path ? (origin.metadata.fluxer as FluxerOrigin | undefined) : undefined;
  return fluxer?.guild_id ? fluxer.message_id : undefined;
}

/**
 * Fluxer, the self-hostable Discord-like platform, through its own client (REST and the WebSocket
 * gateway, no Discord library): guild channels and threads (`fluxer/<guild_id>/<channel_id>`) and DMs
 * (`fluxer/dm/<channel_id>`), attachments in, voice messages heard through Auris and answered with an
 * audio file while Vox is on, files out from the allowed folders. A change of any
 * FLUXER_* connection variable reconnects without a restart.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Fluxer bot (FLUXER_BOT_TOKEN; FLUXER_API_BASE_URL / FLUXER_GATEWAY_URL for a self-hosted server).',
  requiredConfig: ['FLUXER_BOT_TOKEN'],
  needs: ['chain', 'voice', 'clock'],
  chatPlatform: true,
  create: (context) => {
    const { services, config, logger, reportConnection } = context;
    const sender = new FluxerSender({ rest: () => connection.rest, allowed: () => allowedFoldersOf(context), logger, clock: services.clock });
    const onMessage = messageHandler({
      chain: services.chain,
      voice: services.voice,
      sender,
      logger,
      clock: services.clock,
      selfId: () => connection.selfId,
      send: (action, reply) => sendMessage(MessagePayloadSchema.parse(action.payload), reply),
    });
    /** Messages are handed to the chain one after another, in the gateway's order (each waits only until queued). */
    let handling: Promise<void> = Promise.resolve();
    const connection = new FluxerConnection({
      settings: () => settingsOf(context),
      report: reportConnection,
      logger,
      clock: services.clock,
      onDispatch: (type, data) => {
        if (type !== 'MESSAGE_CREATE') return;
        handling = handling.then(() => onMessage(data)).catch((error: unknown) => logger.error({ err: error }, 'a Fluxer message could not be handled'));
      },
    });
    const conversation = (path: string) => {
      const found = conversationOf(path);
      if (!found) throw new Error(`not a Fluxer conversation: ${path}`);
      return found;
    };
    const sendMessage = async (message: z.infer<typeof MessagePayloadSchema>, reply?: string) => {
      const target = conversation(message.interface_path);
      await sender.text(target, message.text, reply);
      if (message.media) await sender.file(target, message.media);
    };

    return {
      actions,
      validatePayload: (_type, payload) => validatePayload(payload, allowedFoldersOf(context), sharedFolderOf(context)),
      handleAction: async (type, payload, origin) => {
        if (type === FILE_ACTION) {
          const file = FilePayloadSchema.parse(payload);
          return sender.file(conversation(file.interface_path), fileUrlOf(file.file_path, sharedFolderOf(context)), file.caption);
        }
        if (type === MEDIA_ACTION) {
          const media = MediaPayloadSchema.parse(payload);
          return sender.file(conversation(media.interface_path), media.file_url, media.caption);
        }
        const message = MessagePayloadSchema.parse(payload);
        await sendMessage(message, replyTo(origin, message.interface_path));
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('a Fluxer connection variable changed; reconnecting');
          connection.restart();
        });
        connection.start();
      },
      stop: () => {
        sender.stop();
        connection.stop();
      },
    };
  },
});
