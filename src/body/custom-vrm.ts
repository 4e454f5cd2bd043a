import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { safeFileName, sweepStagingFolder } from '../system/upload-files.ts';
import type { Logger } from '../logging.ts';
import type { BodyServer } from './body-server.ts';
import { detectVrm, type VrmVersion } from './file-kinds.ts';
import type { VrmModel } from './messages.ts';
import { UploadError } from './upload-errors.ts';

/** Stored models are named by their content, so the same file uploaded twice is one file. */
export const CUSTOM_VRM_NAME = /^[0-9a-f]{64}\.vrm$/;
/** Incoming models wait here until checked (same file system as the models, so storing one is a rename). */
const INCOMING_FOLDER = '.incoming';
/** The URL prefix custom models are served from. */
export const CUSTOM_VRM_PREFIX = '/vrm/';

/** `<backups>/vrm/current.json`: the model chosen last, and the skin it was chosen over. */
const ChoiceSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1).max(255),
  skin: z.string(),
});
type Choice = z.infer<typeof ChoiceSchema>;

/**
 * Custom VRM models uploaded through `POST /api/vrm`, stored as `<backups>/vrm/<sha256>.vrm` and shown
 * through the body's set_vrm_model. The choice survives a restart while the configured skin is still
 * the one it replaced; switching skins shows that skin's own model.
 */
export class CustomVrmStore {
  private current: { path: string; url: string } | undefined;

  constructor(
    private readonly body: BodyServer,
    readonly folder: string,
    private readonly logger: Logger,
  ) {
    body.assets.addSource(() => (this.current && body.getVrmModel()?.url === this.current.url ? [{ ...this.current, kind: 'vrm' as const }] : []));
  }

  /** A fresh path to stream an incoming model to before it is checked. */
  async stagingPath(): Promise<string> {
    const folder = join(this.folder, INCOMING_FOLDER);
    await mkdir(folder, { recursive: true });
    return join(folder, randomUUID());
  }

  /** The stored file behind a `/vrm/<name>` URL segment, or undefined for any other name. */
  pathOf(name: string): string | undefined {
    return CUSTOM_VRM_NAME.test(name) ? join(this.folder, name) : undefined;
  }

  /** Checks the staged file is a VRM (0.x or 1.0), stores it by hash and shows it. */
  async adopt(staged: string, originalName: string): Promise<VrmModel & { version: VrmVersion }> {
    const version = await detectVrm(staged);
    if (!version) throw new UploadError('unsupported', 'The file is not a VRM model (a glTF binary with the VRMC_vrm or VRM extension)');
    const hashed = await this.body.assets.hashFile(staged);
    if (!hashed) throw new Error(`the staged model ${staged} cannot be read`);
    const sha256 = hashed.hash.slice('sha256:'.length);
    await rename(staged, join(this.folder, `${sha256}.vrm`));
    const name = safeFileName(originalName).replace(/\.(vrm|glb)$/i, '') || 'custom';
    const choice: Choice = { sha256, name, skin: this.body.library.skin };
    // Written beside and renamed, so a process stopped here keeps the previous choice whole.
    const partial = join(this.folder, INCOMING_FOLDER, `${randomUUID()}.json`);
    await writeFile(partial, `${JSON.stringify(choice, null, 2)}\n`);
    await rename(partial, join(this.folder, 'current.json'));
    return { ...this.show(choice), version };
  }

  /**
   * Removes the models a stopped process left staged, then shows the model chosen before the restart,
   * when its file and its skin are still there.
   */
  async restore(): Promise<void> {
    const staged = await sweepStagingFolder(join(this.folder, INCOMING_FOLDER));
    if (staged > 0) this.logger.info({ count: staged }, 'files of unfinished model uploads removed');
    let choice: Choice;
    try {
      choice = ChoiceSchema.parse(JSON.parse(await readFile(join(this.folder, 'current.json'), 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn({ err: error }, 'ignoring a broken custom model choice');
      return;
    }
    if (choice.skin !== this.body.library.skin) return;
    const present = await stat(join(this.folder, `${choice.sha256}.vrm`)).then(
      (info) => info.isFile(),
      () => false,
    );
    if (present) this.show(choice);
    else this.logger.warn({ sha256: choice.sha256 }, 'the custom model chosen earlier is gone; showing the skin model');
  }

  private show(choice: Choice): VrmModel {
    const url = `${CUSTOM_VRM_PREFIX}${choice.sha256}.vrm`;
    this.current = { path: join(this.folder, `${choice.sha256}.vrm`), url };
    const hash = `sha256:${choice.sha256}`;
    this.body.setVrmModel(url, choice.name, hash);
    return { name: choice.name, url, hash };
  }
}
