import { z } from 'zod';
import type { ViewerMessage } from '../../src/components/contract.ts';
import { INTERFACE_ID } from './paths.ts';

/** The subscriptions the interface creates: chat first (required), then the events the model may react to. */
export const SUBSCRIPTIONS = [
  { type: 'channel.chat.message', version: '1', condition: (ids: Ids) => ({ broadcaster_user_id: ids.broadcaster, user_id: ids.self }), required: true },
  { type: 'channel.follow', version: '2', condition: (ids: Ids) => ({ broadcaster_user_id: ids.broadcaster, moderator_user_id: ids.self }), required: false },
  { type: 'channel.subscribe', version: '1', condition: (ids: Ids) => ({ broadcaster_user_id: ids.broadcaster }), required: false },
  { type: 'channel.raid', version: '1', condition: (ids: Ids) => ({ to_broadcaster_user_id: ids.broadcaster }), required: false },
  { type: 'channel.cheer', version: '1', condition: (ids: Ids) => ({ broadcaster_user_id: ids.broadcaster }), required: false },
] as const;

export interface Ids {
  /** The channel's user id. */
  broadcaster: string;
  /** The account of the access token: who chats. */
  self: string;
  selfLogin: string;
}

const ChatMessageSchema = z.object({
  chatter_user_id: z.string(),
  chatter_user_name: z.string(),
  message_id: z.string(),
  message: z.object({
    text: z.string(),
    fragments: z.array(z.object({ type: z.string(), mention: z.object({ user_id: z.string() }).nullish() })).default([]),
  }),
  cheer: z.object({ bits: z.number() }).nullish(),
  reply: z.object({ parent_user_id: z.string() }).nullish(),
});
const FollowSchema = z.object({ user_id: z.string(), user_name: z.string() });
const SubscribeSchema = z.object({ user_id: z.string(), user_name: z.string(), tier: z.string(), is_gift: z.boolean().default(false) });
const RaidSchema = z.object({ from_broadcaster_user_id: z.string(), from_broadcaster_user_name: z.string(), viewers: z.number() });
/** An anonymous cheer has null user fields. */
const CheerSchema = z.object({
  is_anonymous: z.boolean().default(false),
  user_id: z.string().nullish(),
  user_name: z.string().nullish(),
  message: z.string().default(''),
  bits: z.number().positive(),
});

/** The Twitch facts an answer may use: the message to reply to, the event, the bits. */
export interface TwitchOrigin {
  message_id?: string;
  event: string;
  bits?: number;
}

/**
 * A notification as a message of the channel's conversation. Chat messages keep their words; a follow, a
 * subscription or a raid becomes a short line in parentheses saying what happened, from that viewer, so
 * the model can thank them; a cheer keeps its message after a line saying the bits. Cheers, subscriptions and
 * raids are support (answered first in stream mode). While channel.cheer is subscribed (`subscribed`), the
 * chat copy of a cheer is left to that event (it also carries anonymous cheers), so a cheer is heard once.
 * The account's own messages and unreadable events give undefined.
 */
export function viewerMessageOf(
  type: string,
  event: Record<string, unknown>,
  ids: Ids,
  interfacePath: string,
  subscribed: ReadonlySet<string>,
): ViewerMessage | undefined {
  const base = { interfaceId: INTERFACE_ID, interfacePath, group: true };
  const event_ = (sender: { id: string; name: string }, text: string, twitch: TwitchOrigin, support: boolean): ViewerMessage => ({
    message: { ...base, text, senderId: sender.id, senderName: sender.name, mentioned: true, metadata: { twitch } },
    support,
  });
  switch (type) {
    case 'channel.chat.message': {
      const chat = ChatMessageSchema.safeParse(event);
      if (!chat.success || chat.data.chatter_user_id === ids.self || chat.data.message.text.trim() === '') return undefined;
      const { data } = chat;
      const bits = data.cheer?.bits ?? 0;
      if (bits > 0 && subscribed.has('channel.cheer')) return undefined;
      // Bits are given to the channel: a cheer is answered like a mention.
      const mentioned =
        bits > 0 ||
        data.message.fragments.some((fragment) => fragment.type === 'mention' && fragment.mention?.user_id === ids.self) ||
        data.message.text.toLowerCase().includes(`@${ids.selfLogin}`);
      const twitch: TwitchOrigin = { message_id: data.message_id, event: type, ...(bits > 0 ? { bits } : {}) };
      return {
        message: {
          ...base,
          text: data.message.text,
          senderId: data.chatter_user_id,
          senderName: data.chatter_user_name,
          mentioned,
          replyToSelf: data.reply?.parent_user_id === ids.self,
          metadata: { twitch },
        },
        support: bits > 0,
      };
    }
    case 'channel.follow': {
      const follow = FollowSchema.safeParse(event);
      if (!follow.success) return undefined;
      return event_({ id: follow.data.user_id, name: follow.data.user_name }, `(${follow.data.user_name} just followed the channel.)`, { event: type }, false);
    }
    case 'channel.subscribe': {
      const sub = SubscribeSchema.safeParse(event);
      if (!sub.success) return undefined;
      const tier = `tier ${Number(sub.data.tier) / 1000 || sub.data.tier}`;
      const text = `(${sub.data.user_name} just subscribed to the channel, ${tier}${sub.data.is_gift ? ', as a gift' : ''}.)`;
      return event_({ id: sub.data.user_id, name: sub.data.user_name }, text, { event: type }, true);
    }
    case 'channel.raid': {
      const raid = RaidSchema.safeParse(event);
      if (!raid.success) return undefined;
      const text = `(${raid.data.from_broadcaster_user_name} is raiding the channel with ${raid.data.viewers} viewers.)`;
      return event_({ id: raid.data.from_broadcaster_user_id, name: raid.data.from_broadcaster_user_name }, text, { event: type }, true);
    }
    case 'channel.cheer': {
      const cheer = CheerSchema.safeParse(event);
      if (!cheer.success) return undefined;
      const { data } = cheer;
      const sender =
        data.is_anonymous || !data.user_id ? { id: 'anonymous', name: 'An anonymous viewer' } : { id: data.user_id, name: data.user_name ?? data.user_id };
      const text = `(${sender.name} cheered ${data.bits} bits) ${data.message}`.trim();
      return event_(sender, text, { event: type, bits: data.bits }, true);
    }
    default:
      return undefined;
  }
}
