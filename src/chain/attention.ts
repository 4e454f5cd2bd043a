export type AttentionCommand = 'sleep' | 'wake' | 'status';

const COMMANDS: Record<string, AttentionCommand> = { '/sleep': 'sleep', '/wake': 'wake', '/awake': 'wake', '/status': 'status' };

const normalise = (text: string) => text.trim().toLowerCase().replace(/[.!?\s]+$/u, '').replace(/\s+/gu, ' ');

/**
 * `/sleep`, `/wake`, `/awake`, `/status` (also as `/sleep@botname`), or a whole message equal to one of
 * the CHAT_SLEEP_COMMANDS / CHAT_WAKE_COMMANDS phrases (case and trailing punctuation ignored).
 */
export function parseAttentionCommand(text: string, phrases: { sleep: readonly string[]; wake: readonly string[] }): AttentionCommand | undefined {
  const normalised = normalise(text);
  const word = normalised.split(' ')[0]?.split('@')[0] ?? '';
  if (normalised.startsWith('/') && COMMANDS[word] && normalised.split(' ').length === 1) return COMMANDS[word];
  if (phrases.sleep.some((phrase) => normalise(phrase) === normalised)) return 'sleep';
  if (phrases.wake.some((phrase) => normalise(phrase) === normalised)) return 'wake';
  return undefined;
}

/** Per-chat attention mode: awake by default; an asleep chat answers only mentions and replies. */
export class AttentionModes {
  private readonly asleep = new Set<string>();

  isAsleep(interfacePath: string): boolean {
    return this.asleep.has(interfacePath);
  }

  set(interfacePath: string, asleep: boolean): void {
    if (asleep) this.asleep.add(interfacePath);
    else this.asleep.delete(interfacePath);
  }

  /** Whether a message of this chat gets an answer. */
  shouldAnswer(interfacePath: string, message: { mentioned: boolean; replyToSelf: boolean }): boolean {
    return !this.isAsleep(interfacePath) || message.mentioned || message.replyToSelf;
  }
}
