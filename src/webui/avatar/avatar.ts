/**
 * The avatar controller: turns body messages into the model, animation, face and speech, and keeps the
 * commands that arrive before the model is ready until it is.
 */
import { type VRM, VRMUtils } from '@pixiv/three-vrm';
import { keyHeaders } from '../net/api-key.ts';
import type { AnimationStateInfo, AnimationView, ClientMessage, ServerMessage } from '../protocol.ts';
import { Eyes } from './eyes.ts';
import { Face } from './face.ts';
import { FaceInbox } from './face-inbox.ts';
import { installFaceProbe } from './face-probe.ts';
import { installMouthProbe } from './mouth-probe.ts';
import { EMPTY_PERSONA, loadPersona, type Persona, publishPersona } from './persona.ts';
import { AnimationPlayer, type PlayCommand } from './player.ts';
import { Speech } from './speech.ts';
import { SpeechQueue } from './speech-queue.ts';
import type { Stage } from './stage.ts';
import { loadVrm } from './vrm-loader.ts';

/** How much of a body clip may be left when the clear of its natural end arrives (delivery and decoding lag). */
const NATURAL_END_LAG_S = 0.5;

const LAST_MODEL = 'anima.last_model';

interface Body {
  vrm: VRM;
  player: AnimationPlayer;
  face: Face;
  eyes: Eyes;
}

interface ModelRef {
  url: string;
  hash?: string;
}

export class Avatar {
  private body: Body | undefined;
  private persona: Persona = EMPTY_PERSONA;
  private model: ModelRef | undefined;
  private modelGeneration = 0;
  private playing: PlayCommand | undefined;
  /** The playing command's animation_state, given to the face of a model that mounts later. */
  private playingState: AnimationStateInfo | undefined;
  private pending: { command: PlayCommand; receivedAt: number } | undefined;
  private readonly preloads = new Set<string>();
  /** The body's own clip this window plays (not a piece of a streamed reply, which tts_stop ends). */
  private bodyClip: string | undefined;
  /** Face messages that arrive before the model are kept for it. */
  private readonly faceInbox = new FaceInbox();
  /** Speech audio; main shows the "Tap to enable sound" button while the browser refuses it. */
  readonly speech = new Speech();
  /** The spoken reply's pieces in order; main turns it off with the voice switch. */
  readonly speechQueue: SpeechQueue;
  private lipsync: boolean | undefined;

  constructor(
    private readonly stage: Stage,
    private readonly send: (message: ClientMessage) => boolean,
    /** Asks main to poll `GET /api/animation_state` (a summary says the server plays something else). */
    private readonly resync: () => void,
  ) {
    this.speechQueue = new SpeechQueue(this.speech, send);
    stage.onFrame((delta) => this.frame(delta));
    installFaceProbe(stage, () => this.body);
    installMouthProbe(stage, this.speech, () => this.body);
  }

  /**
   * Starts loading the model before the socket says which one, so the first frame does not wait for the
   * session and the hello: the model this browser showed last time (warm: it is in Cache Storage), else
   * the one `GET /api/body/state/model` names. The socket's `vrm_model` corrects either if it differs.
   */
  earlyStart(): void {
    try {
      const model = JSON.parse(localStorage.getItem(LAST_MODEL) ?? 'null') as ModelRef | null;
      if (typeof model?.url === 'string') {
        this.showModel(model);
        return;
      }
    } catch {
      localStorage.removeItem(LAST_MODEL);
    }
    fetch('/api/body/state/model', { headers: keyHeaders() })
      .then(async (response) => {
        const body = response.ok ? ((await response.json()) as { vrm_model: ModelRef | null }) : undefined;
        if (body?.vrm_model && !this.model) this.showModel({ url: body.vrm_model.url, ...(body.vrm_model.hash ? { hash: body.vrm_model.hash } : {}) });
      })
      .catch(() => undefined);
  }

  /** True when the message was for the avatar. */
  handle(message: ServerMessage): boolean {
    switch (message.type) {
      case 'vrm_model':
        this.showModel({ url: message.url, ...(message.hash ? { hash: message.hash } : {}) });
        return true;
      case 'vrm_animation':
        this.command(
          { file: message.file, state: message.state, loop: message.loop, descriptor: message.descriptor },
          message.animation_state,
          message.reset_eyes,
        );
        return true;
      case 'animation':
        this.command({ file: message.animation, state: message.state, loop: message.loop, descriptor: message.descriptor ?? null }, message.animation_state);
        return true;
      case 'preload_animation':
        if (this.body) this.body.player.preload(message.animation);
        else this.preloads.add(message.animation);
        return true;
      case 'vrm_face':
        this.faceInbox.face(message.values);
        return true;
      case 'vrm_expression_set':
        this.faceInbox.setExpression(message.name, message.intensity);
        return true;
      case 'vrm_expression_clear':
        this.faceInbox.clearExpression();
        return true;
      case 'animation_state':
        if (this.playing?.state !== message.state || !decodeURIComponent(this.playing.file).endsWith(`/${message.animation_file}`)) this.resync();
        return true;
      case 'tts_play':
        this.speechQueue.push(message);
        return true;
      case 'tts_stop':
        this.speechQueue.stop(message.utterance_id);
        return true;
      case 'tts_end':
        this.speechQueue.end(message.utterance_id, message.seq);
        return true;
      case 'vrm_audio':
        if (!message.audio) this.bodyClipCleared();
        // The body's clip is for a window that joins mid-speech; the queue's own pieces are not played twice.
        else if (this.speechQueue.allowsClip(message.audio.url)) {
          this.bodyClip = message.audio.url;
          this.speech.play({ url: message.audio.url, offset_s: message.audio.offset_s, lipsync: message.audio.lipsync_data ?? null });
        }
        return true;
      default:
        return false;
    }
  }

  /** After a reconnect: what the server plays now (`GET /api/animation_state`), if it is not what shows. */
  sync(snapshot: AnimationView): void {
    if (!snapshot.url) return;
    if (this.playing?.file === snapshot.url && this.playing.state === snapshot.state && this.playing.phase === snapshot.phase) return;
    const command: PlayCommand = { file: snapshot.url, state: snapshot.state, loop: snapshot.loop, descriptor: snapshot.descriptor };
    if (snapshot.phase) command.phase = snapshot.phase;
    // Clocks of server and browser may differ: only loops (which wrap) take the server's start time.
    if (snapshot.loop) command.elapsed = Math.max(0, (Date.now() - Date.parse(snapshot.started_at)) / 1000);
    this.command(command, undefined);
  }

  /**
   * The body's audio was cleared. At a clip's natural end the clear comes as the clip finishes here (this window
   * started it a moment after the server did), so it plays out; a clear with more than that left is a cut
   * (stream mode's "skip"), and the clip stops at once.
   */
  private bodyClipCleared(): void {
    const clip = this.bodyClip;
    this.bodyClip = undefined;
    if (clip !== undefined && this.speech.current()?.url === clip && this.speech.remaining() > NATURAL_END_LAG_S) this.speech.stop();
  }

  private command(command: PlayCommand, state: AnimationStateInfo | undefined, resetEyes?: boolean): void {
    if (state?.phase) command.phase = state.phase;
    if (state?.timing) command.elapsed = state.timing.time_in_clip;
    if (state) this.announceState(state);
    this.playing = command;
    this.playingState = state;
    if (resetEyes) this.body?.eyes.reset();
    if (!this.body) {
      this.pending = { command, receivedAt: performance.now() };
      return;
    }
    this.body.face.setAnimationState(command.file, state);
    void this.body.player.play(command);
  }

  private announceState(state: AnimationStateInfo): void {
    window.dispatchEvent(new CustomEvent('app_animation_state_updated', { detail: state }));
    const lipsync = state.lipsync === true;
    if (lipsync !== this.lipsync) {
      this.lipsync = lipsync;
      window.dispatchEvent(new CustomEvent('app_animation_lipsync_changed', { detail: { lipsync } }));
    }
  }

  private showModel(model: ModelRef): void {
    if (this.model?.url === model.url && this.model.hash === model.hash) return;
    this.model = model;
    const generation = ++this.modelGeneration;
    const persona = loadPersona(model.url);
    loadVrm(model.url, model.hash)
      .then(async (vrm) => {
        if (generation !== this.modelGeneration) return;
        this.persona = await persona;
        publishPersona(this.persona);
        this.mount(vrm);
        if (model.hash) localStorage.setItem(LAST_MODEL, JSON.stringify(model));
      })
      .catch((error: unknown) => {
        if (generation !== this.modelGeneration) return;
        this.model = undefined;
        console.error('The avatar model could not be loaded:', error);
      });
  }

  private mount(vrm: VRM): void {
    const eyes = new Eyes(vrm, this.stage.camera);
    const player = new AnimationPlayer(vrm, this.stage.firstAvatarFrame, {
      onSection: (command, section) =>
        window.dispatchEvent(new CustomEvent('anima:animation-section', { detail: { file: command.file, state: command.state, section } })),
      onComplete: (command) => this.send({ type: 'animation_complete', file: command.file, state: command.state }),
      onError: (command, error) => console.error(`The animation ${command.file} could not be played:`, error),
    });
    const previous = this.stage.setVrm(vrm);
    if (previous) VRMUtils.deepDispose(previous.scene);
    const face = new Face(vrm, eyes, this.persona);
    this.body = { vrm, player, face, eyes };
    this.faceInbox.attach(face);
    for (const url of this.preloads) player.preload(url);
    this.preloads.clear();
    const replay = this.pending ?? (this.playing ? { command: this.playing, receivedAt: performance.now() } : undefined);
    this.pending = undefined;
    if (replay) {
      face.setAnimationState(replay.command.file, this.playingState);
      // The command waited for the model: catch up by the wait, as the other windows did not wait.
      const waited = (performance.now() - replay.receivedAt) / 1000;
      void player.play({ ...replay.command, elapsed: (replay.command.elapsed ?? 0) + waited });
    }
  }

  private frame(delta: number): void {
    const body = this.body;
    if (!body) return;
    body.player.update(delta);
    body.face.setVisemeTarget(this.speech.visemeTarget(this.persona));
    body.face.update(delta, body.player.currentFrame());
    body.vrm.update(delta);
  }
}
