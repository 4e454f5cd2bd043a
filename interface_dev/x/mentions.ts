import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ChainPort, ComponentContext } from '../../src/components/contract.ts';
import type { XApi, XUser } from './api.ts';
import { INTERFACE_ID, pathOf } from './paths.ts';

/** The newest mention already handed on, per account, kept across restarts. */
const StateSchema = z.object({ user_id: z.string(), since_id: z.string().nullable() });
/** `null`: the account had no mention at its first look, so every mention found later is new. */
type SinceId = string | null;

/** The account's since_id, or undefined before its first look. */
async function readState(file: string, userId: string): Promise<SinceId | undefined> {
  try {
    const state = StateSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    return state.user_id === userId ? state.since_id : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, userId: string, sinceId: SinceId): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify({ user_id: userId, since_id: sinceId }));
  await rename(`${file}.tmp`, file);
}

/** What an answer needs: the tweet to reply to. */
export interface XOrigin {
  tweet_id: string;
}

/**
 * The account's mentions, read with `since_id`: the first look of an account only notes the newest
 * mention (old ones are not answered years late), later looks hand every new mention to the chain,
 * oldest first, and move `since_id` on (kept in `stateFile`, so mentions made while Anima was off are
 * answered after a restart).
 */
export class MentionReader {
  private me: XUser | undefined;

  constructor(private readonly deps: { chain: ChainPort; logger: ComponentContext['logger']; stateFile: string; username: () => string }) {}

  /** The account, once found. */
  get account(): XUser | undefined {
    return this.me;
  }

  async look(api: XApi): Promise<void> {
    this.me ??= await api.userByName(this.deps.username().replace(/^@/, ''));
    const me = this.me;
    const sinceId = await readState(this.deps.stateFile, me.id);
    const mentions = await api.mentions(me.id, sinceId ?? undefined);
    const newest = mentions.meta.newest_id;
    if (sinceId !== undefined) {
      const names = new Map(mentions.includes.users.map((user) => [user.id, user]));
      for (const tweet of [...mentions.data].reverse()) {
        if (tweet.author_id === me.id) continue;
        const author = tweet.author_id ? names.get(tweet.author_id) : undefined;
        const origin: XOrigin = { tweet_id: tweet.id };
        const result = await this.deps.chain.submit({
          interfaceId: INTERFACE_ID,
          interfacePath: pathOf(tweet.conversation_id ?? tweet.id),
          text: tweet.text,
          senderId: tweet.author_id ?? 'unknown',
          senderName: author ? `@${author.username}` : '',
          group: true,
          mentioned: true,
          metadata: { x: origin },
        });
        if (result.status !== 'queued') this.deps.logger.debug({ tweet_id: tweet.id, status: result.status }, 'an X mention was not queued');
      }
    }
    if (newest !== undefined || sinceId === undefined) await writeState(this.deps.stateFile, me.id, newest ?? null);
  }

  /** A new account or token: find the account again. */
  forget(): void {
    this.me = undefined;
  }
}
