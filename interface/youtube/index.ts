import { z } from 'zod';
import { defineInterface, messageActionOf, splitMessage, viewerHearing } from '../../src/components/contract.ts';
import { ChatReader } from './chat-reader.ts';
import { viewerMessageOf } from './messages.ts';
import { INTERFACE_ID, pathOf, videoOf } from './paths.ts';
import { CONNECTION_KEYS, canPost, settingsOf } from './settings.ts';

/** YouTube's longest live chat message, in characters. */
const MAX_MESSAGE = 200;
const MESSAGE_ACTION = messageActionOf(INTERFACE_ID);

/** `media` is accepted and not posted: live chat carries no files (speech reaches the stream through the avatar). */
const MessagePayloadSchema = z.object({ text: z.string().min(1), interface_path: z.string().min(1), media: z.string().optional() });

/**
 * YouTube live chat of one stream (`youtube/<video_id>`), polled at the pace the API asks for. With an OAuth
 * access token it answers in the chat (liveChatMessages.insert); with an API key only it reads, and its
 * answers reach the stream through the avatar's voice alone. In stream mode (the default) the chat goes to
 * the host's stream desk; otherwise the chat is a group conversation answering super chats and memberships.
 */
export default defineInterface({
  interfaceId: INTERFACE_ID,
  description: 'YouTube live chat (YOUTUBE_LIVE_VIDEO_ID with YOUTUBE_ACCESS_TOKEN or YOUTUBE_REFRESH_TOKEN to answer, or YOUTUBE_API_KEY to read only).',
  requiredConfig: ['YOUTUBE_LIVE_VIDEO_ID', ['YOUTUBE_ACCESS_TOKEN', 'YOUTUBE_REFRESH_TOKEN', 'YOUTUBE_API_KEY']],
  needs: ['chain', 'stream', 'clock'],
  chatPlatform: true,
  create: (context) => {
    const { services, config, logger, reportConnection } = context;
    const hear = viewerHearing(services, logger, 'YouTube');
    const reader = new ChatReader({
      settings: () => settingsOf(context),
      report: reportConnection,
      logger,
      clock: services.clock,
      onMessage: (item) => {
        const viewer = viewerMessageOf(item, pathOf(settingsOf(context).videoId));
        if (viewer) hear(viewer);
      },
    });

    return {
      actions: {
        [MESSAGE_ACTION]: {
          schema: MessagePayloadSchema,
          brief: 'Send a message to the YouTube live chat (a plain text reply does this by itself).',
          examples: [{ text: 'Thank you for the Super Chat!', interface_path: 'youtube/dQw4w9WgXcQ' }],
          instructions: 'Live chat is plain text; messages over 200 characters are split. Keep answers short.',
        },
      },
      validatePayload: (_type, payload) =>
        typeof payload.interface_path === 'string' && videoOf(payload.interface_path) !== settingsOf(context).videoId
          ? [`payload.interface_path must be ${pathOf(settingsOf(context).videoId)}, the configured stream`]
          : [],
      handleAction: async (_type, payload) => {
        const { text } = MessagePayloadSchema.parse(payload);
        if (!canPost(settingsOf(context))) {
          logger.info('YouTube is read only (no YOUTUBE_ACCESS_TOKEN nor YOUTUBE_REFRESH_TOKEN): the answer is not posted in the chat');
          return;
        }
        const chatId = reader.chatId;
        if (!chatId) throw new Error('the YouTube live chat is not being read');
        for (const part of splitMessage(text, MAX_MESSAGE)) reader.posted(await reader.api.post(chatId, part));
      },
      start: () => {
        config.onChange(CONNECTION_KEYS, () => {
          logger.info('a YouTube variable changed; reading the chat again');
          reader.stop();
          reader.start();
        });
        reader.start();
      },
      stop: () => reader.stop(),
    };
  },
});
