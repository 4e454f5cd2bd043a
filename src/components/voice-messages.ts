import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** What the model reads for a voice message it cannot hear. */
export const VOICE_UNHEARD = '(a voice message, which I cannot listen to: speech-to-text is off)';
export const VOICE_UNCLEAR = '(a voice message I could not make out)';

/** The part of the contract's VoicePort this needs (named here: the contract re-exports this module). */
interface Listening {
  readonly canListen: boolean;
  transcribe(path: string, mimeType?: string): Promise<string>;
}

/** A voice message of a chat platform: its file's name and type, and how to download it. */
export interface VoiceMessageSource {
  fileName: string;
  mimeType: string;
  download(): Promise<Buffer>;
}

/**
 * The words of a platform's voice message, as the model reads them: downloaded into a folder of its own,
 * transcribed by Auris, removed; a line saying so when speech-to-text is off or the message cannot be
 * made out (the failure is logged), so the person still gets an answer.
 */
export async function hearVoiceMessage(
  voice: Listening,
  source: VoiceMessageSource,
  logger: { warn(details: object, message: string): void },
): Promise<string> {
  if (!voice.canListen) return VOICE_UNHEARD;
  const directory = await mkdtemp(join(tmpdir(), 'anima-voice-'));
  try {
    const path = join(directory, basename(source.fileName) || 'voice');
    await writeFile(path, await source.download());
    const words = (await voice.transcribe(path, source.mimeType)).trim();
    return words === '' ? VOICE_UNCLEAR : words;
  } catch (error) {
    logger.warn({ err: error }, 'a voice message could not be transcribed');
    return VOICE_UNCLEAR;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
