import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileUrlOf, validatePayload } from '../../../interface/fluxer/actions.ts';
import { conversationOf, pathOf } from '../../../interface/fluxer/paths.ts';
import { allowedFoldersOf, settingsOf } from '../../../interface/fluxer/settings.ts';
import type { ComponentContext } from '../../../src/components/contract.ts';
import { realLocalFile } from '../../../src/components/local-files.ts';

type Settable = Pick<ComponentContext, 'config' | 'paths'>;

/** A context reading these variables, the others blank (VOX_OUTPUT_DIR: tmp_tts). */
function contextWith(values: Record<string, string>, cwd = '/srv/anima'): Settable {
  const all: Record<string, string> = { VOX_OUTPUT_DIR: 'tmp_tts', ...values };
  return { config: { get: (key: string) => all[key] ?? '' } as unknown as ComponentContext['config'], paths: { cwd, backups: join(cwd, 'backups') } };
}

describe('the Fluxer settings, paths and what its actions may send', () => {
  it('adds the Bot prefix when missing, and builds the versioned REST root', () => {
    expect(settingsOf(contextWith({ FLUXER_BOT_TOKEN: ' abc.def ' }))).toEqual({
      token: 'abc.def',
      authorization: 'Bot abc.def',
      restBase: 'https://api.fluxer.app/v1',
      gatewayUrl: undefined,
      version: '1',
    });
    expect(
      settingsOf(
        contextWith({
          FLUXER_BOT_TOKEN: 'Bot abc',
          FLUXER_API_BASE_URL: 'http://chat.local/api/',
          FLUXER_API_VERSION: 'v2',
          FLUXER_GATEWAY_URL: 'ws://chat.local/gw',
        }),
      ),
    ).toMatchObject({ token: 'abc', authorization: 'Bot abc', restBase: 'http://chat.local/api/v2', gatewayUrl: 'ws://chat.local/gw', version: '2' });
    expect(settingsOf(contextWith({ FLUXER_BOT_TOKEN: 'abc', FLUXER_API_BASE_URL: 'http://chat.local/api/v9' })).restBase).toBe('http://chat.local/api/v9');
  });

  it('names guild channels and DMs as the contract does, and reads nothing else as a Fluxer path', () => {
    expect(pathOf({ guildId: '11', channelId: '22' })).toBe('fluxer/11/22');
    expect(pathOf({ channelId: '33' })).toBe('fluxer/dm/33');
    expect(conversationOf('fluxer/11/22')).toEqual({ guildId: '11', channelId: '22' });
    expect(conversationOf('fluxer/dm/33')).toEqual({ channelId: '33' });
    for (const path of ['discord/11/22', 'fluxer/11', 'fluxer/dm/abc', 'fluxer/11/22/33']) expect(conversationOf(path)).toBeUndefined();
  });

  describe('files', () => {
    let root: string;
    let context: Settable;
    let shared: string;
    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), 'anima-fluxer-files-'));
      context = contextWith({}, root);
      shared = join(root, 'backups', 'fluxer', 'files');
      await mkdir(shared, { recursive: true });
      await mkdir(join(root, 'tmp_tts'));
    });
    afterEach(() => rm(root, { recursive: true, force: true }));

    it('takes web links, speech Vox wrote and files of the shared folder, and no other file of this machine', () => {
      const path = 'fluxer/dm/33';
      const check = (payload: Record<string, unknown>) => validatePayload({ interface_path: path, ...payload }, allowedFoldersOf(context), shared);
      expect(check({ file_path: 'notes.txt' })).toEqual([]);
      expect(check({ file_url: pathToFileURL(join(root, 'tmp_tts', 'speech.wav')).href })).toEqual([]);
      expect(check({ text: 'see', media: 'https://example.org/cat.png' })).toEqual([]);
      for (const file_path of ['/etc/passwd', '../../../package.json', 'file:///etc/passwd', pathToFileURL(join(root, 'secret.txt')).href]) {
        expect(check({ file_path })).toEqual([expect.stringContaining('payload.file_path must be')]);
      }
      expect(check({ file_url: 'ftp://example.org/x' })).toEqual([expect.stringContaining('payload.file_url must be')]);
      expect(validatePayload({ text: 'hi', interface_path: 'webui/abc' }, allowedFoldersOf(context), shared)).toEqual([
        expect.stringContaining('payload.interface_path must be'),
      ]);
    });

    it('follows links to the real file: a link in the shared folder to a file outside is refused', async () => {
      await writeFile(join(root, 'secret.txt'), 'secret');
      await symlink(join(root, 'secret.txt'), join(shared, 'notes.txt'));
      await expect(realLocalFile(fileUrlOf('notes.txt', shared), allowedFoldersOf(context))).rejects.toThrow(/only files in VOX_OUTPUT_DIR or/);
    });
  });
});
