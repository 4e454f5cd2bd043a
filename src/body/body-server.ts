import { basename, join } from 'node:path';
import type { Logger } from '../logging.ts';
import { AnimationLibrary, type AnimationLists, type Variants } from './animation-library.ts';
import { AnimationMachine, type PlayRequest, type PlayResult } from './animation-machine.ts';
import type { AnimationChange } from './animation-payload.ts';
import { AssetManifest, type Asset } from './asset-manifest.ts';
import { AudioTracker, type SpeechAudio } from './audio-tracker.ts';
import { systemClock, type Clock, type Random } from './clock.ts';
import { FaceState } from './face-state.ts';
import type { PersonaEmotions } from '../components/contract.ts';
import { PersonaReader } from './persona.ts';
import type { AnimationView, AudioState, BodyMessage, EmotionSnapshot, FullBodyState, VrmModel, VrmModelMessage } from './messages.ts';
import { FALLBACK_SKIN, findSkinModel, skinUrl } from './skin-files.ts';
import { snapshotState, type StateSnapshot, type TaggedJson } from './state-snapshot.ts';
import { StateRegistry } from './states.ts';
import { TransportSet, type BodyTransport } from './transports.ts';

export interface BodyServerOptions {
  skinsDir: string;
  activeSkin: string;
  logger: Logger;
  clock?: Clock;
  random?: Random;
}

export type StateOptions = Omit<PlayRequest, 'state'>;

/**
 * The body-state server: the one authority over the avatar's model, animation, face and speech audio.
 * It pushes every real change through the registered transports and never touches a socket itself.
 */
export class BodyServer {
  readonly states = new StateRegistry();
  readonly library: AnimationLibrary;
  readonly assets: AssetManifest;
  private readonly transports: TransportSet;
  private readonly machine: AnimationMachine;
  private readonly audio: AudioTracker;
  private readonly face = new FaceState();
  private readonly personas: PersonaReader;
  /** The clock of every body timer; what holds the body for a while (speech) uses it too. */
  readonly clock: Clock;
  private model: VrmModel | undefined;
  /** The model's broadcast, kept so every welcome sends the very same object (serialised once). */
  private modelMessage: VrmModelMessage | undefined;
  private skinModelUrl: string | undefined;
  /** Dropped at every change of the full state, made again by the next read. */
  private snapshot: StateSnapshot | undefined;
  private readonly forgetSnapshot = () => {
    this.snapshot = undefined;
  };
  /** Asked by the snapshot only while speech plays; one function for every read. */
  private readonly audioOffset = () => this.audio.offset();
  private emotionSource: (() => EmotionSnapshot | undefined) | undefined;

  constructor(private readonly options: BodyServerOptions) {
    const { logger } = options;
    this.clock = options.clock ?? systemClock;
    this.transports = new TransportSet(logger);
    this.personas = new PersonaReader(options.skinsDir, logger, this.clock);
    this.library = new AnimationLibrary(options.skinsDir, options.activeSkin, logger);
    this.assets = new AssetManifest(
      options.skinsDir,
      () => [this.library.skin, FALLBACK_SKIN],
      () => this.library.temporaryPaths(),
    );
    this.audio = new AudioTracker(this.clock, (audio) => {
      this.forgetSnapshot();
      this.transports.each('broadcastAudio', { type: 'vrm_audio', audio });
    });
    this.machine = new AnimationMachine({
      clock: this.clock,
      random: options.random ?? Math.random,
      library: this.library,
      states: this.states,
      transports: this.transports,
      logger,
      emotions: () => this.emotions(),
      speaking: () => this.audio.isPlaying(),
      changed: this.forgetSnapshot,
    });
  }

  /** Discovers the skins' animations and model, enters idle and starts the watchdog. */
  async start(): Promise<void> {
    await this.library.refresh();
    await this.loadSkinModel();
    this.machine.start();
  }

  stop(): void {
    this.machine.stop();
    this.audio.stop();
  }

  /** The folder holding the skins (and `temp/` uploads). */
  get skinsDir(): string {
    return this.options.skinsDir;
  }

  addTransport(transport: BodyTransport): () => void {
    return this.transports.add(transport);
  }

  // Animation state.

  transitionTo(state: string, options: StateOptions = {}): PlayResult {
    return this.machine.request({ ...options, state });
  }

  /** Like transitionTo; `loop` applies to files without a descriptor. */
  playAnimation(state: string, loop: boolean, options: Omit<StateOptions, 'loop'> = {}): PlayResult {
    return this.machine.request({ ...options, state, loop });
  }

  stopAnimation(contextId: string, sessionId?: string): boolean {
    return this.machine.stopContext(contextId, sessionId);
  }

  /** The client's completion event for a non-looping clip. */
  completeAnimation(file: string, state: string): boolean {
    return this.machine.complete(file, state);
  }

  getAnimation(): AnimationView {
    const playing = this.machine.current();
    return {
      state: playing.state,
      file: playing.file?.name ?? null,
      url: playing.file?.url ?? null,
      loop: playing.loop,
      phase: playing.phase,
      descriptor: playing.file?.descriptor ?? null,
      started_at: new Date(playing.startedAt).toISOString(),
      priority: playing.priority,
      contexts: this.machine.contextIds(),
    };
  }

  /** Throws UnknownStateError for an unknown state. */
  getAnimationVariants(state: string): Variants {
    return this.library.variants(this.states.resolve(state));
  }

  onAnimationStateChanged(callback: (change: AnimationChange) => void): () => void {
    return this.machine.onChange(callback);
  }

  registerStatePriority(state: string, priority: number): void {
    this.states.registerPriority(state, priority);
  }

  registerStateAliases(aliases: Record<string, string>): void {
    this.states.registerAliases(aliases);
  }

  registerStateAnimations(state: string, lists: AnimationLists, sequential = false): void {
    this.library.registerStateAnimations(state, lists, sequential);
  }

  /** The watchdog returns a state to idle when its probe answers false (for example think without a task). */
  registerWatchdogProbe(state: string, probe: () => boolean): void {
    this.machine.registerProbe(state, probe);
  }

  async setAnimationSearchPaths(paths: string[]): Promise<void> {
    this.library.setSearchPaths(paths);
    await this.library.refresh();
  }

  async addTemporarySearchPath(path: string): Promise<void> {
    this.library.addTemporaryPath(path);
    await this.library.refresh();
  }

  async removeTemporarySearchPath(path: string): Promise<void> {
    if (this.library.removeTemporaryPath(path)) await this.library.refresh();
  }

  /** Re-reads the search paths after files changed on disk. */
  refreshAnimations(): Promise<void> {
    return this.library.refresh();
  }

  async setActiveSkin(skin: string): Promise<void> {
    if (skin === this.library.skin) return;
    this.library.setActiveSkin(skin);
    await this.library.refresh();
    await this.loadSkinModel();
    this.machine.replay();
  }

  // Model, face, emotions, audio.

  setVrmModel(url: string, name: string, hash?: string): void {
    const model: VrmModel = hash === undefined ? { name, url } : { name, url, hash };
    if (this.model && this.model.url === url && this.model.name === name && this.model.hash === hash) return;
    this.model = model;
    this.modelMessage = { type: 'vrm_model', ...model };
    this.forgetSnapshot();
    this.transports.each('broadcastModel', this.modelMessage);
  }

  getVrmModel(): VrmModel | null {
    return this.model ?? null;
  }

  /** The active skin's folder, or null while a custom model (not the skin's) is shown. */
  currentSkin(): string | null {
    return this.model && this.model.url !== this.skinModelUrl ? null : this.library.skin;
  }

  setFaceValues(values: Record<string, number>): void {
    const message = this.face.setValues(values, this.clock.now());
    if (!message) return;
    this.forgetSnapshot();
    this.transports.each('broadcastFace', message);
  }

  getFaceValues(): Record<string, number> {
    return this.face.current();
  }

  setExpression(name: string, intensity: number): void {
    const message = this.face.setExpression(name, intensity);
    if (message) this.transports.each('broadcastExpression', message);
  }

  clearExpression(): void {
    const message = this.face.clearExpression();
    if (message) this.transports.each('broadcastExpression', message);
  }

  /** An emotion manager plugin supplies the snapshot attached to animation commands; returns its release. */
  setEmotionSource(source: (() => EmotionSnapshot | undefined) | undefined): () => void {
    this.emotionSource = source;
    return () => {
      if (this.emotionSource === source) this.emotionSource = undefined;
    };
  }

  /** The active skin's emotion presets and speeds (its persona.json, else the fallback skin's). */
  persona(): Promise<PersonaEmotions> {
    return this.personas.read(this.library.skin);
  }

  getEmotionState() {
    return this.face.emotionState(this.emotions());
  }

  setAudio(audio: SpeechAudio): AudioState {
    return this.audio.set(audio);
  }

  clearAudio(): void {
    this.audio.clear();
  }

  getAudio(): AudioState | null {
    return this.audio.current();
  }

  getFullState(): FullBodyState {
    return { vrm_model: this.getVrmModel(), animation: this.getAnimation(), face_values: this.getFaceValues(), audio: this.getAudio() };
  }

  /**
   * The full state as JSON text with its entity tag, serialised once per change (when first read after
   * it) rather than per reader: what pollers of GET /api/body/state get. The same text as
   * `JSON.stringify(getFullState())`, face values from the object the sockets send.
   */
  getFullStateJson(): TaggedJson {
    this.snapshot ??= snapshotState({
      vrm_model: this.getVrmModel(),
      animation: this.getAnimation(),
      face_values: this.face.message().values,
      audio: this.audio.playingAudio(),
    });
    return this.snapshot(this.audioOffset);
  }

  getAssetManifest(): Promise<Asset[]> {
    return this.assets.list();
  }

  getMissingAssets(held: Iterable<string>): Promise<Asset[]> {
    return this.assets.missing(held);
  }

  /**
   * What a socket gets right after its hello: the missing asset (the model, when the client holds
   * neither its URL nor its hash), then the current animation before every other state message, then
   * the model, face values, the expression override standing and the speech audio in progress.
   */
  welcomeMessages(hasAssets: Iterable<string>): BodyMessage[] {
    const held = new Set(hasAssets);
    const model = this.modelMessage;
    const modelMissing = model !== undefined && !held.has(model.url) && !(model.hash !== undefined && held.has(model.hash));
    const messages: BodyMessage[] = [];
    if (model && modelMissing) messages.push(model);
    const animation = this.machine.snapshot();
    if (animation) {
      const animationFile = decodeURIComponent(animation.file.split('/').pop() ?? '');
      messages.push(animation, { type: 'animation_state', state: animation.state, animation_file: animationFile });
    }
    if (model && !modelMissing) messages.push(model);
    messages.push(this.face.message());
    const expression = this.face.standingExpression();
    if (expression) messages.push(expression);
    const audio = this.audio.current();
    if (audio) messages.push({ type: 'vrm_audio', audio });
    return messages;
  }

  private emotions(): EmotionSnapshot | undefined {
    try {
      return this.emotionSource?.();
    } catch (error) {
      this.options.logger.error({ err: error }, 'the emotion source failed');
      return undefined;
    }
  }

  private async loadSkinModel(): Promise<void> {
    for (const skin of [this.library.skin, FALLBACK_SKIN]) {
      const file = await findSkinModel(this.options.skinsDir, skin);
      if (!file) continue;
      const path = join(this.options.skinsDir, skin, file);
      const url = skinUrl(this.options.skinsDir, path);
      const hashed = await this.assets.hashFile(path);
      if (!url || !hashed) continue;
      this.skinModelUrl = url;
      this.setVrmModel(url, basename(file, '.vrm'), hashed.hash);
      return;
    }
    this.options.logger.warn({ skin: this.library.skin }, 'no skin has a .vrm model; the avatar has no body until one is set');
  }
}
