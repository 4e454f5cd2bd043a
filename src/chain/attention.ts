export type AttentionCommand = 'sleep' | 'wake' | 'status';

const COMMANDS: Record<string, AttentionCommand> = { '/sleep': 'sleep', '/wake': 'wake', '/awake': 'wake', '/status': 'status' };

/**
 * Commands and phrases are a few words: a longer message is chat and is not read at all, so the work
 * spent on any message stays small whatever its sender typed.
 */
export const MAX_COMMAND_LENGTH = 256;

const TRAILING_PUNCTUATION = new Set(['.', '!', '?']);

/**
 * Lower case, without trailing punctuation or space, each run of white space one space. The end is cut
 * by a loop: a `[.!?\s]+$` pattern retries from every position of a long run (quadratic time).
 */
function normalise(text: string): string {
  const lower = text.trim().toLowerCase();
  let end = lower.length;
  while (end > 0 && (TRAILING_PUNCTUATION.has(lower.charAt(end - 1)) || /\s/u.test(lower.charAt(end - 1)))) end -= 1;
  return lower.slice(0, end).replace(/\s+/gu, ' ');
}

/**
 * `/sleep`, `/wake`, `/awake`, `/status` (also as `/sleep@botname`), or a whole message equal to one of
 * the CHAT_SLEEP_COMMANDS / CHAT_WAKE_COMMANDS phrases (case and trailing punctuation ignored). A message
 * longer than MAX_COMMAND_LENGTH is none of them.
 */
export function parseAttentionCommand(text: string, phrases: { sleep: readonly string[]; wake: readonly string[] }): AttentionCommand | undefined {
  if (text.length > MAX_COMMAND_LENGTH) return undefined;
  const normalised = normalise(text);
  const word = normalised.split(' ')[0]?.split('@')[0] ?? '';
  if (normalised.startsWith('/') && COMMANDS[word] && normalised.split(' ').length === 1) return COMMANDS[word];
  if (phrases.sleep.some((phrase) => normalise(phrase) === normalised)) return 'sleep';
  if (phrases.wake.some((phrase) => normalise(phrase) === normalised)) return 'wake';
  return undefined;
}

/**
 * Per-chat attention mode: a chat with one person is awake by default, a group asleep (so it does not
 * answer every line of a conversation among people); an asleep chat answers only mentions and replies.
 * Only chats whose mode a command changed from their default are kept.
 */
export class AttentionModes {
  private readonly changed = new Map<string, boolean>();

  isAsleep(interfacePath: string, group = false): boolean {
    return this.changed.get(interfacePath) ?? group;
  }

  set(interfacePath: string, asleep: boolean, group = false): void {
    if (asleep === group) this.changed.delete(interfacePath);
    else this.changed.set(interfacePath, asleep);
  }

  /** Whether a message of this chat gets an answer. */
  shouldAnswer(interfacePath: string, message: { mentioned: boolean; replyToSelf: boolean; group: boolean }): boolean {
    return !this.isAsleep(interfacePath, message.group) || message.mentioned || message.replyToSelf;
  }
}
