import { readFile } from 'node:fs/promises';
import type { Services } from '../../src/services.ts';

/**
 * Configuration for hearing speech with the bundled pocketsphinx: free transcription of synthetic speech is
 * poor, a phrase list makes it exact (platform notes), so a test names the phrases it will say.
 */
export const listeningFor = (phrases: readonly string[]) => ({
  ACTIVE_AURIS_ENGINE: 'pocketsphinx',
  AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases }),
});

/** What a chat client records as a voice message: `text` spoken by the local engine, as an OGG/Opus voice note. */
export async function recordedVoiceNote(services: Services, text: string): Promise<Buffer> {
  const { audio, voice } = services;
  const spoken = await audio.vox.speak({ text, interfacePath: 'nobody/1' });
  const note = await voice.voiceNote(audio.files.pathOf(spoken.filename ?? '') ?? '');
  try {
    return await readFile(note.path);
  } finally {
    await note.dispose();
  }
}
