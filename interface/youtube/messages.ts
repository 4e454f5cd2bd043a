import type { ViewerMessage } from '../../src/components/contract.ts';
import type { ChatItem } from './api.ts';
import { INTERFACE_ID } from './paths.ts';

/** The YouTube facts an answer may use. */
export interface YouTubeOrigin {
  message_id: string;
  type: string;
  amount?: string;
}

/** Membership events: support, said as a line in parentheses. */
const MEMBERSHIP: Record<string, string> = {
  newSponsorEvent: 'just became a member of the channel',
  memberMilestoneChatEvent: 'celebrates a membership milestone',
  membershipGiftingEvent: 'gifted memberships to the chat',
};

/**
 * A live chat item as a message of the stream's conversation: text messages keep their words; super chats
 * and super stickers are support (answered first in stream mode) with their amount; membership events
 * become a line in parentheses. Other items (deletions, bans, polls) give undefined.
 */
export function viewerMessageOf(item: ChatItem, interfacePath: string): ViewerMessage | undefined {
  const { snippet, authorDetails: author } = item;
  const sender = { senderId: author.channelId, senderName: author.displayName };
  const base = { interfaceId: INTERFACE_ID, interfacePath, group: true, ...sender };
  const origin = (amount?: string): { youtube: YouTubeOrigin } => ({ youtube: { message_id: item.id, type: snippet.type, ...(amount ? { amount } : {}) } });
  switch (snippet.type) {
    case 'textMessageEvent': {
      const text = snippet.textMessageDetails?.messageText ?? snippet.displayMessage ?? '';
      return text.trim() === '' ? undefined : { message: { ...base, text, metadata: origin() } };
    }
    case 'superChatEvent': {
      const details = snippet.superChatDetails;
      if (!details) return undefined;
      const text = `(Super Chat of ${details.amountDisplayString}) ${details.userComment ?? ''}`.trim();
      return { message: { ...base, text, mentioned: true, metadata: origin(details.amountDisplayString) }, support: true };
    }
    case 'superStickerEvent': {
      const amount = snippet.superStickerDetails?.amountDisplayString ?? '';
      return {
        message: { ...base, text: `(${author.displayName} sent a Super Sticker of ${amount}.)`, mentioned: true, metadata: origin(amount) },
        support: true,
      };
    }
    default: {
      const said = MEMBERSHIP[snippet.type];
      return said ? { message: { ...base, text: `(${author.displayName} ${said}.)`, mentioned: true, metadata: origin() }, support: true } : undefined;
    }
  }
}
