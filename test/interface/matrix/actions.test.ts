import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validatePayload } from '../../../interface/matrix/actions.ts';
import { realLocalFile } from '../../../src/components/local-files.ts';

describe('what the matrix actions may send', () => {
  let root: string;
  let vox: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'anima-matrix-actions-'));
    vox = join(root, 'tmp_tts');
    await mkdir(vox);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const path = 'matrix/!room:example.org';

  it('takes mxc:// files, web links and speech Vox wrote, and nothing else of this machine', () => {
    expect(validatePayload({ file_url: 'mxc://example.org/abc', interface_path: path }, vox)).toEqual([]);
    expect(validatePayload({ text: 'see', media: 'https://example.org/cat.png', interface_path: path }, vox)).toEqual([]);
    expect(validatePayload({ file_url: pathToFileURL(join(vox, 'speech.wav')).href, interface_path: path }, vox)).toEqual([]);
    for (const url of ['file:///etc/passwd', pathToFileURL(join(vox, '..', 'secret.wav')).href, 'ftp://example.org/x', 'javascript:alert(1)']) {
      expect(validatePayload({ file_url: url, interface_path: path }, vox)).toEqual([expect.stringContaining('payload.file_url must be')]);
    }
    expect(validatePayload({ text: 'hi', interface_path: 'webui/abc' }, vox)).toEqual([expect.stringContaining('payload.interface_path must be')]);
  });

  it('follows links to the real file: a link in the folder to a file outside is refused', async () => {
    const outside = join(root, 'secret.txt');
    await writeFile(outside, 'secret');
    await symlink(outside, join(vox, 'speech.wav'));
    await writeFile(join(vox, 'real.wav'), 'RIFF');
    await expect(realLocalFile(pathToFileURL(join(vox, 'speech.wav')).href, vox)).rejects.toThrow(/only files in VOX_OUTPUT_DIR/);
    await expect(realLocalFile(pathToFileURL(join(vox, 'real.wav')).href, vox)).resolves.toBe(join(await realpath(vox), 'real.wav'));
  });
});
