import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MatrixClient } from 'matrix-js-sdk';
import { type ClockPort, withTimeout } from '../../src/components/contract.ts';
import { retrying } from './retrying.ts';

/** The largest voice message fetched for transcription (Telegram's own bot download limit). */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface Downloaded {
  path: string;
  dispose(): Promise<void>;
}

/** Counts the bytes as they come, so a file over the limit stops at the limit instead of filling the disk. */
async function* capped(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`the file is larger than ${maxBytes} bytes`);
    yield chunk;
  }
}

/**
 * Fetches an `mxc://` file into a folder of its own (removed by `dispose`): through the authenticated
 * media endpoints when the homeserver has them (spec v1.11), else the older public ones.
 */
export async function download(client: MatrixClient, clock: ClockPort, mxc: string, maxBytes = MAX_DOWNLOAD_BYTES): Promise<Downloaded> {
  const authenticated = await client.isVersionSupported('v1.11').catch(() => false);
  const url = client.mxcUrlToHttp(mxc, undefined, undefined, undefined, false, true, authenticated);
  if (!url) throw new Error(`not a media URL: ${mxc}`);
  const token = client.getAccessToken();
  return withTimeout(clock, DOWNLOAD_TIMEOUT_MS, async (signal) => {
    const response = await fetch(url, { headers: authenticated && token ? { authorization: `Bearer ${token}` } : {}, signal });
    if (!response.ok || !response.body) throw new Error(`the homeserver answered ${response.status} for ${mxc}`);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel();
      throw new Error(`the file is larger than ${maxBytes} bytes`);
    }
    const folder = await mkdtemp(join(tmpdir(), 'anima-matrix-'));
    const dispose = () => rm(folder, { recursive: true, force: true });
    const path = join(folder, 'media');
    try {
      await pipeline(capped(response.body as AsyncIterable<Uint8Array>, maxBytes), createWriteStream(path));
    } catch (error) {
      await dispose();
      throw error;
    }
    return { path, dispose };
  });
}

/** Uploads a local file to the homeserver's media repository; returns its `mxc://` URL and size. */
export async function upload(client: MatrixClient, clock: ClockPort, path: string, mimeType: string, name: string): Promise<{ url: string; size: number }> {
  const data = await readFile(path);
  const answer = await retrying(clock, () => client.uploadContent(data, { name, type: mimeType, includeFilename: true }));
  return { url: answer.content_uri, size: data.byteLength };
}
