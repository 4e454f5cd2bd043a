import type { ClockPort, VoicePort } from '../../src/components/contract.ts';
import type { MatrixClient } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import { download } from './media.ts';

/** The parts of an `m.room.message` content this interface reads; everything else is ignored. */
export interface MessageContent {
  msgtype?: unknown;
  body?: unknown;
  filename?: unknown;
  url?: unknown;
  info?: { mimetype?: unknown; size?: unknown };
  'm.mentions'?: { user_ids?: unknown };
  'm.relates_to'?: { rel_type?: unknown; event_id?: unknown; is_falling_back?: unknown; 'm.in_reply_to'?: { event_id?: unknown } };
  'org.matrix.msc3245.voice'?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

const MEDIA_KINDS: Record<string, string> = { 'm.image': 'picture', 'm.video': 'video', 'm.file': 'file', 'm.audio': 'audio file' };

/** The relations of a message: its thread, the event it really answers (not a thread's fallback), an edit. */
export function relationsOf(content: MessageContent): { threadRoot?: string; replyTo?: string; edit: boolean } {
  const relates = content['m.relates_to'];
  const threadRoot = relates?.rel_type === 'm.thread' ? text(relates.event_id) : undefined;
  const replyTo = threadRoot && relates?.is_falling_back === true ? undefined : text(relates?.['m.in_reply_to']?.event_id);
  return { ...(threadRoot ? { threadRoot } : {}), ...(replyTo ? { replyTo } : {}), edit: relates?.rel_type === 'm.replace' };
}

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the message names `me`: its intentional mentions (`m.mentions`, spec v1.7) when it has them,
 * else (older clients) the user id or display name in the text, as clients highlighted before.
 */
export function mentions(content: MessageContent, me: string, displayName: string | undefined): boolean {
  const intended = content['m.mentions'];
  if (intended && typeof intended === 'object') return Array.isArray(intended.user_ids) && intended.user_ids.includes(me);
  const body = text(content.body) ?? '';
  return [me, displayName].some((name) => name && new RegExp(`(?:^|[^\\p{L}\\p{N}_])${escaped(name)}(?:$|[^\\p{L}\\p{N}_])`, 'iu').test(body));
}

/** A reply's body without the quoted fallback older clients put before it (`> <@who> quoted`, then a blank line). */
export function withoutReplyFallback(body: string): string {
  const lines = body.split('\n');
  let start = 0;
  while (start < lines.length && lines[start]?.startsWith('>')) start += 1;
  if (start === 0) return body;
  if (lines[start] === '') start += 1;
  return lines.slice(start).join('\n');
}

function size(bytes: unknown): string | undefined {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return undefined;
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A picture, video, file or audio file as the model reads it: its kind, name, type, size and `mxc://`
 * address (which `send_media_matrix` can post again), then the caption when it has one (spec v1.10:
 * a `filename` beside a different `body`).
 */
export function describeMedia(kind: string, content: MessageContent): string {
  const filename = text(content.filename);
  const body = text(content.body);
  const name = filename ?? body ?? kind;
  const facts = [text(content.info?.mimetype), size(content.info?.size), text(content.url)].filter(Boolean).join(', ');
  const caption = filename && body && body !== filename ? ` ${body}` : '';
  return `[${kind} "${name}"${facts ? ` (${facts})` : ''}]${caption}`;
}

export const isVoice = (content: MessageContent) => content.msgtype === 'm.audio' && content['org.matrix.msc3245.voice'] !== undefined;

/** A voice message's words through Auris, or a note saying why there are none. */
export async function heard(client: MatrixClient, clock: ClockPort, voice: VoicePort, content: MessageContent, logger: Logger): Promise<string> {
  const url = text(content.url);
  if (!url) return '[a voice message that could not be fetched]';
  if (!voice.canListen) return '[a voice message; speech-to-text (ACTIVE_AURIS_ENGINE) is off, so it could not be heard]';
  let file: Awaited<ReturnType<typeof download>> | undefined;
  try {
    file = await download(client, clock, url);
    const words = (await voice.transcribe(file.path, text(content.info?.mimetype))).trim();
    return words === '' ? '[a voice message without words]' : `[voice message] ${words}`;
  } catch (error) {
    logger.warn({ err: error, url }, 'a Matrix voice message could not be transcribed');
    return '[a voice message that could not be transcribed]';
  } finally {
    await file?.dispose();
  }
}

/** What the chain reads of a message: its text, a described file, or a voice message's words; undefined to skip it. */
export async function textOf(client: MatrixClient, clock: ClockPort, voice: VoicePort, content: MessageContent, logger: Logger): Promise<string | undefined> {
  if (isVoice(content)) return heard(client, clock, voice, content, logger);
  const kind = typeof content.msgtype === 'string' ? MEDIA_KINDS[content.msgtype] : undefined;
  if (kind) return describeMedia(kind, content);
  const body = text(content.body);
  if (body === undefined) return undefined;
  const words = relationsOf(content).replyTo ? withoutReplyFallback(body) : body;
  return words.trim() === '' ? undefined : words;
}
