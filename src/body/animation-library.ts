import { join, resolve } from 'node:path';
import type { Logger } from '../logging.ts';
import { bucketOf, type Bucket } from './descriptor.ts';
import { FALLBACK_SKIN, listStateFolders, readStateFolder, type AnimationFile } from './skin-files.ts';

export type AnimationLists = Partial<Record<Bucket, string[]>>;
export type Variants = Record<Bucket, AnimationFile[]>;

interface Override {
  files: AnimationFile[];
  sequential: boolean;
}

/**
 * Where animations come from. Search roots hold `animations/<state>/`. For each state the first tier
 * with files wins: all temporary paths together, then the active skin, then the fallback skin (or the
 * list given to setSearchPaths). Tiers are not mixed, so a skin never borrows a stray clip of another
 * rig for a state it covers itself.
 */
export class AnimationLibrary {
  private readonly temporary: string[] = [];
  private customPaths: string[] | undefined;
  private activeSkin: string;
  private byState = new Map<string, AnimationFile[]>();
  /** Every tier's files per state, earlier tiers first, for lookups by name. */
  private everywhere = new Map<string, AnimationFile[]>();
  private readonly overrides = new Map<string, Override>();
  private readonly requestedOverrides = new Map<string, { lists: AnimationLists; sequential: boolean }>();

  constructor(
    private readonly skinsDir: string,
    activeSkin: string,
    private readonly logger: Logger,
  ) {
    this.activeSkin = activeSkin;
  }

  get skin(): string {
    return this.activeSkin;
  }

  setActiveSkin(skin: string): void {
    this.activeSkin = skin;
  }

  /** Replaces the skin roots (active, then fallback) with these folders. An empty list restores the skins. */
  setSearchPaths(paths: string[]): void {
    this.customPaths = paths.length > 0 ? paths.map((path) => resolve(path)) : undefined;
  }

  addTemporaryPath(path: string): void {
    const absolute = resolve(path);
    if (!this.temporary.includes(absolute)) this.temporary.unshift(absolute);
  }

  /** The temporary search roots, newest first. */
  temporaryPaths(): string[] {
    return [...this.temporary];
  }

  removeTemporaryPath(path: string): boolean {
    const index = this.temporary.indexOf(resolve(path));
    if (index >= 0) this.temporary.splice(index, 1);
    return index >= 0;
  }

  /** The search tiers in priority order; each tier is one or more roots. */
  tiers(): string[][] {
    const skins = this.customPaths ?? [...new Set([this.activeSkin, FALLBACK_SKIN])].map((skin) => join(this.skinsDir, skin));
    const tiers = skins.map((root) => [root]);
    return this.temporary.length > 0 ? [[...this.temporary], ...tiers] : tiers;
  }

  /** Re-reads every search root; call after files or paths change. */
  async refresh(): Promise<void> {
    const tiers = this.tiers();
    const discovered = await Promise.all(tiers.map((roots) => this.readTier(roots)));
    const byState = new Map<string, AnimationFile[]>();
    const everywhere = new Map<string, AnimationFile[]>();
    for (const tier of discovered) {
      for (const [state, files] of tier) {
        if (!byState.has(state) && files.length > 0) byState.set(state, files);
        everywhere.set(state, [...(everywhere.get(state) ?? []), ...files]);
      }
    }
    this.byState = byState;
    this.everywhere = everywhere;
    this.overrides.clear();
    for (const [state, request] of this.requestedOverrides) this.applyOverride(state, request.lists, request.sequential);
  }

  private async readTier(roots: string[]): Promise<Map<string, AnimationFile[]>> {
    const tier = new Map<string, AnimationFile[]>();
    for (const root of roots) {
      for (const state of await listStateFolders(root)) {
        const files = await readStateFolder(root, state, this.skinsDir, this.logger);
        const known = tier.get(state) ?? [];
        const names = new Set(known.map((file) => file.name));
        tier.set(state, [...known, ...files.filter((file) => !names.has(file.name))]);
      }
    }
    return tier;
  }

  /** Replaces a state's files by these names (looked up in every tier), played in order when `sequential`. */
  registerStateAnimations(state: string, lists: AnimationLists, sequential: boolean): void {
    this.requestedOverrides.set(state, { lists, sequential });
    this.applyOverride(state, lists, sequential);
  }

  private applyOverride(state: string, lists: AnimationLists, sequential: boolean): void {
    const names = [...(lists.loop ?? []), ...(lists.post ?? []), ...(lists.other ?? [])];
    const files = names.flatMap((name) => {
      const file = this.findAnywhere(state, name);
      if (!file) this.logger.warn({ state, file: name }, 'registered animation not found in any search path');
      return file ? [file] : [];
    });
    this.overrides.set(state, { files, sequential });
  }

  private findAnywhere(state: string, name: string): AnimationFile | undefined {
    return this.everywhere.get(state)?.find((file) => file.name === name);
  }

  /** The files a play of this state chooses from. */
  files(state: string): AnimationFile[] {
    return this.overrides.get(state)?.files ?? this.byState.get(state) ?? [];
  }

  /** Whether plays of this state walk the files in order (idle by default) rather than at random. */
  isSequential(state: string): boolean {
    return this.overrides.get(state)?.sequential ?? state === 'idle';
  }

  variants(state: string): Variants {
    const variants: Variants = { loop: [], post: [], other: [] };
    for (const file of this.files(state)) variants[bucketOf(file.descriptor)].push(file);
    return variants;
  }

  /** A discovered file of a state by its exact name, whichever tier it came from. */
  find(state: string, name: string): AnimationFile | undefined {
    return this.files(state).find((file) => file.name === name) ?? this.findAnywhere(state, name);
  }
}
