import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { isSafeSegment, listSkins, skinUrl } from './skin-files.ts';
import { UPLOAD_ID_PATTERN, UploadError } from './upload-errors.ts';
import type { UploadStore } from './upload-store.ts';

/** `POST /api/animations/promote` and the `promote_upload` action take the same request. */
export const PromoteRequestSchema = z.object({
  upload_id: z.string().regex(UPLOAD_ID_PATTERN),
  /** Defaults to the active skin. */
  skin: z.string().min(1).max(255).optional(),
  overwrite: z.boolean().optional(),
});
export type PromoteRequest = z.infer<typeof PromoteRequestSchema>;

export interface PromoteResult {
  promoted: true;
  skin: string;
  state: string;
  file: string;
  url: string;
}

/**
 * Copies `source` to `target` through a hidden file beside it, so `target` is never seen half written
 * (a process stopped mid-copy leaves the old file whole). Without `overwrite` an existing target is
 * left alone and EEXIST thrown: the link that places the copy fails atomically.
 */
async function placeCopy(source: string, target: string, overwrite: boolean): Promise<void> {
  const partial = join(dirname(target), `.${randomUUID()}.partial`);
  try {
    await copyFile(source, partial);
    if (overwrite) await rename(partial, target);
    else await link(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
}

/**
 * Copies an upload (and its descriptor) into `skins/<skin>/animations/<state>/`, then removes the
 * upload. Allowed only while COMPANION_PROMOTE_ENABLED is 1; an existing file of that name is a conflict
 * unless `overwrite`, which also drops the old file's descriptor when the upload brings none (its timings
 * belong to the old clip).
 */
export async function promoteUpload(store: UploadStore, request: PromoteRequest): Promise<PromoteResult> {
  if (!store.promoteEnabled()) throw new UploadError('disabled', 'Promotion of uploads is disabled (COMPANION_PROMOTE_ENABLED is not 1)');
  const meta = await store.get(request.upload_id);
  if (!meta) throw new UploadError('not_found', `No upload ${request.upload_id}`);
  const { body } = store;
  const skin = request.skin ?? body.library.skin;
  if (!isSafeSegment(skin) || skin.startsWith('.') || !(await listSkins(body.skinsDir)).includes(skin)) {
    throw new UploadError('not_found', `Unknown skin: ${skin}`);
  }
  const source = join(store.rootOf(meta.upload_id), 'animations', meta.state, meta.file);
  const folder = join(body.skinsDir, skin, 'animations', meta.state);
  const target = join(folder, meta.file);
  await mkdir(folder, { recursive: true });
  try {
    await placeCopy(source, target, request.overwrite === true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UploadError('conflict', `${skin}/animations/${meta.state}/${meta.file} exists; send overwrite: true to replace it`);
    }
    throw error;
  }
  if (meta.has_descriptor) await placeCopy(`${source}.json`, `${target}.json`, true);
  else await rm(`${target}.json`, { force: true });
  await store.remove(meta.upload_id);
  await body.refreshAnimations();
  return { promoted: true, skin, state: meta.state, file: meta.file, url: skinUrl(body.skinsDir, target) ?? '' };
}
