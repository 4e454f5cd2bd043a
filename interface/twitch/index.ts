import { z } from 'zod';
import { type ActionOrigin, defineInterface, messageActionOf, splitMessage, viewerHearing } from '../../src/components/contract.ts';
import { TwitchConnection } from './connection.ts';
import type { TwitchOrigin } from './events.ts';
import { viewerMessageOf } from './events.ts';
import { INTERFACE_ID, loginOf, pathOf } from './paths.ts';
import { CONNECTION_KEYS, settingsOf } from './settings.ts';

/** Twitch's longest chat message, in characters. */
const MAX_MESSAGE = 500;
const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);

/** `media` is accepted and not posted: Twitch chat carries no files (speech reaches the stream through the avatar). */
const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1), media: z.string().optional() });

/** The chat message an answer replies to: the one it answers, when it goes to the same channel. */
function replyTo(origin: ActionOrigin | undefined, path: string): string | undefined {
  const twitch = origin?.interfacePath === path ? (origin.metadata.twitch as TwitchOrigin | undefined) : undefined;
  return twitch?.message_id;
}

/**
 * Twitch chat through EventSub over WebSocket (chat messages, follows, subscriptions, raids, cheers) and Helix (chat
 * messages out), one channel (`twitch/<broadcaster_login>`). In stream mode (STREAM_MODE, the default) the
 * chat goes to the host's stream desk, which answers the best message at a pace, aloud; otherwise the chat
 * is a group conversation answering mentions and replies. A change of any TWITCH_* variable reconnects.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'Twitch chat (TWITCH_CLIENT_ID, TWITCH_ACCESS_TOKEN, TWITCH_CHANNEL; EventSub and Helix).',
  requiredConfig: ['TWITCH_CLIENT_ID', 'TWITCH_ACCESS_TOKEN', 'TWITCH_CHANNEL'],
  needs: ['chain', 'stream', 'clock'],
  chatPlatform: true,
  create: (context) => {
    const { services, config, logger, reportConnection } = context;
    const hear = viewerHearing(services, logger, 'Twitch');
    const connection = new TwitchConnection({
      settings: () => settingsOf(context),
      report: reportConnection,
      logger,
      clock: services.clock,
      onNotification: (type, event, ids, subscribed) => {
        const viewer = viewerMessageOf(type, event, ids, pathOf(settingsOf(context).channel), subscribed);
        if (viewer) hear(viewer);
      },
    });

    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Send a message to the Twitch channel chat (a plain text reply does this by itself).',
          examples: [{ text: 'Thanks for the follow!', interface_path: 'twitch/somechannel' }],
          instructions: 'Twitch chat is plain text; messages over 500 characters are split. Keep answers short: many people are reading.',
        },
      },
      validatePayload: (_type, payload) =>
        typeof payload.interface_path === 'string' && loginOf(payload.interface_path) !== settingsOf(context).channel
          ? [`payload.interface_path must be ${pathOf(settingsOf(context).channel)}, the configured channel`]
          : [],
      handleAction: async (_type, payload, origin) => {
        const { text, interface_path: path } = MessagePayloadSchema.parse(payload);
        const ready = connection.ready;
        if (!ready) throw new Error('Twitch is not connected');
        let reply = replyTo(origin, path);
        for (const part of splitMessage(text, MAX_MESSAGE)) {
          const sent = await ready.helix.sendChatMessage({
            broadcaster_id: ready.ids.broadcaster,
            sender_id: ready.ids.self,
            message: part,
            ...(reply ? { reply_parent_message_id: reply } : {}),
          });
          if (!sent.is_sent) logger.warn({ drop_reason: sent.drop_reason }, 'Twitch dropped a chat message');
          reply = undefined;
        }
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('a Twitch connection variable changed; reconnecting');
          connection.restart();
        });
        connection.start();
      },
      stop: () => connection.stop(),
    };
  },
});
