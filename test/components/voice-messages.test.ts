import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hearVoiceMessage, VOICE_UNCLEAR, VOICE_UNHEARD } from '../../src/components/contract.ts';

describe('hearVoiceMessage, the voice messages of every chat platform', () => {
  const warnings: unknown[] = [];
  const logger = { warn: (details: object) => void warnings.push(details) };
  const source = { fileName: '../../voice.ogg', mimeType: 'audio/ogg', download: async () => Buffer.from('OggS') };

  it('hands the downloaded file to Auris and returns its words, leaving no file behind', async () => {
    const seen: Array<[string, string | undefined]> = [];
    const voice = {
      canListen: true,
      transcribe: async (path: string, mimeType?: string) => {
        seen.push([path, mimeType]);
        return '  good morning ';
      },
    };
    expect(await hearVoiceMessage(voice, source, logger)).toBe('good morning');
    const [path, mimeType] = seen[0] ?? [''];
    expect(path.startsWith(tmpdir())).toBe(true);
    expect(path).toMatch(/anima-voice-[^/]+\/voice\.ogg$/);
    expect(mimeType).toBe('audio/ogg');
    // Its own folder, not a count of all: other test files make and remove such folders at the same time.
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('says so when speech-to-text is off, when nothing was said, and when the download or Auris fails', async () => {
    const never = async () => {
      throw new Error('not to be called');
    };
    expect(await hearVoiceMessage({ canListen: false, transcribe: never }, source, logger)).toBe(VOICE_UNHEARD);
    expect(await hearVoiceMessage({ canListen: true, transcribe: async () => ' ' }, source, logger)).toBe(VOICE_UNCLEAR);
    expect(await hearVoiceMessage({ canListen: true, transcribe: never }, source, logger)).toBe(VOICE_UNCLEAR);
    expect(await hearVoiceMessage({ canListen: true, transcribe: async () => 'x' }, { ...source, download: never }, logger)).toBe(VOICE_UNCLEAR);
    expect(warnings).toHaveLength(2);
  });
});
