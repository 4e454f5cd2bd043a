import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging.ts';
import type { AnimationLibrary } from './animation-library.ts';
import { animationMessage, changeOf, type AnimationChange, type Phase, type Playing } from './animation-payload.ts';
import type { Clock, Random, TimerHandle } from './clock.ts';
import { analyzeDescriptor, effectiveLoop, fallbackDelayMs, isStructured, outroDurationMs } from './descriptor.ts';
import type { EmotionSnapshot, VrmAnimationMessage } from './messages.ts';
import { IdlePreloader } from './idle-preloader.ts';
import type { AnimationFile } from './skin-files.ts';
import { SPEAKING_STATE, type StateRegistry } from './states.ts';
import type { TransportSet } from './transports.ts';

export const WATCHDOG_INTERVAL_MS = 10_000;
export const ROTATION_MIN_MS = 30_000;
export const ROTATION_MAX_MS = 60_000;

export interface PlayRequest {
  state: string;
  sessionId?: string;
  contextId?: string;
  /**
   * Used when the file's descriptor does not decide; defaults to the state's own (idle, think, write and
   * talk loop, plugin states play once). `false` also makes the request one-shot: its context ends with the clip.
   */
  loop?: boolean;
  source?: string;
}

export interface PlayResult {
  accepted: boolean;
  /** The active state after the call. */
  state: string;
  context_id: string | null;
}

export interface MachineDependencies {
  clock: Clock;
  random: Random;
  library: AnimationLibrary;
  states: StateRegistry;
  transports: TransportSet;
  logger: Logger;
  emotions: () => EmotionSnapshot | undefined;
  /** Whether speech audio is playing (the audio tracker knows): talk is not stuck while it does. */
  speaking: () => boolean;
  /** Called after every change to what plays or to the open contexts (the body's state snapshot goes stale). */
  changed: () => void;
}

interface Context {
  state: string;
  priority: number;
  /** The caller's loop parameter, when it gave one. */
  loop: boolean | undefined;
}

interface PlayOptions {
  loop?: boolean;
  sessionId?: string;
  source?: string;
  contextId?: string;
}

/**
 * The spec's states-and-transitions and effective_loop tables: priorities, contexts, the outro wait, the
 * non-loop fallback, idle rotation and the watchdog. Equal priority preempts (contract).
 */
export class AnimationMachine {
  private playing: Playing;
  private readonly contexts = new Map<string, Context>();
  private endTimer: TimerHandle | undefined;
  private endKind: 'fallback' | 'outro' | undefined;
  private rotationTimer: TimerHandle | undefined;
  private watchdogTimer: TimerHandle | undefined;
  private readonly sequence = new Map<string, number>();
  private readonly listeners = new Set<(change: AnimationChange) => void>();
  private readonly probes = new Map<string, () => boolean>();

  private readonly preloader: IdlePreloader;

  constructor(private readonly deps: MachineDependencies) {
    this.preloader = new IdlePreloader(deps.library, deps.transports);
    this.playing = { state: 'idle', file: null, loop: true, phase: 'loop', startedAt: deps.clock.now(), priority: 0, source: undefined, contextId: undefined };
  }

  start(): void {
    this.play('idle', { source: 'start' });
    this.watchdogTimer = this.deps.clock.setInterval(() => this.checkStuck(), WATCHDOG_INTERVAL_MS);
  }

  stop(): void {
    this.clearEndTimer();
    this.cancelRotation();
    if (this.watchdogTimer !== undefined) this.deps.clock.clearInterval(this.watchdogTimer);
    this.watchdogTimer = undefined;
  }

  current(): Readonly<Playing> {
    return this.playing;
  }

  contextIds(): string[] {
    return [...this.contexts.keys()];
  }

  /** The command a client that connects now needs, with its timing brought up to date. */
  snapshot(): VrmAnimationMessage | undefined {
    return animationMessage(this.playing, this.deps.clock.now(), this.deps.emotions());
  }

  onChange(listener: (change: AnimationChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A check the watchdog runs while `state` is active: false means the state has no reason to stay. */
  registerProbe(state: string, probe: () => boolean): void {
    this.probes.set(state, probe);
  }

  /** transition_to / play_animation. Throws UnknownStateError for a state nobody registered. */
  request(request: PlayRequest): PlayResult {
    const state = this.deps.states.resolve(request.state);
    const priority = this.deps.states.priority(state);
    if (priority < this.highestPriorityExcept(request.contextId)) {
      return { accepted: false, state: this.playing.state, context_id: request.contextId ?? null };
    }
    if (state === 'idle') {
      // Idle is the absence of contexts. Being accepted, this request outranks or equals every other
      // context; leaving one open would make a later stop skip its outro and the return to idle.
      this.contexts.clear();
      this.deps.changed();
      if (this.playing.state !== 'idle') this.play('idle', this.playOptions(request));
      return { accepted: true, state: 'idle', context_id: request.contextId ?? null };
    }
    const contextId = request.contextId ?? randomUUID();
    this.contexts.set(contextId, { state, priority, loop: request.loop });
    this.deps.changed();
    const continuing = this.playing.state === state && this.playing.loop && this.playing.phase !== 'outro';
    if (continuing) {
      this.show({ ...this.playing, contextId, priority });
    } else {
      this.play(state, { ...this.playOptions(request), contextId });
    }
    return { accepted: true, state, context_id: contextId };
  }

  /** stop_animation: ends one context; the last one ends the state (through its outro when it has one). */
  stopContext(contextId: string, sessionId?: string): boolean {
    if (!this.contexts.delete(contextId)) return false;
    this.deps.changed();
    if (this.contexts.size > 0 || this.playing.state === 'idle' || this.endKind === 'outro') return true;
    const outroMs = outroDurationMs(this.playing.file?.descriptor ?? null);
    if (outroMs === undefined) this.enterIdle('stop', sessionId);
    else this.playOutro(outroMs);
    return true;
  }

  /** The client's completion event for a non-looping clip (or an outro): the state ends now. */
  complete(file: string, state: string): boolean {
    const { playing } = this;
    const matches = playing.file !== null && playing.state === state && (file === playing.file.url || file === playing.file.name);
    if (!matches || this.endKind === undefined) return false;
    if (this.endKind === 'outro') this.enterIdle('outro');
    else this.finish();
    return true;
  }

  /** Plays the active state again with a freshly chosen file (after the skin or search paths change). */
  replay(): void {
    const { state, source, contextId } = this.playing;
    const loop = contextId === undefined ? undefined : this.contexts.get(contextId)?.loop;
    this.play(state, {
      ...(loop === undefined ? {} : { loop }),
      ...(source === undefined ? {} : { source }),
      ...(contextId === undefined ? {} : { contextId }),
    });
  }

  private playOptions(request: PlayRequest): PlayOptions {
    const options: PlayOptions = {};
    if (request.loop !== undefined) options.loop = request.loop;
    if (request.sessionId !== undefined) options.sessionId = request.sessionId;
    if (request.source !== undefined) options.source = request.source;
    return options;
  }

  private highestPriorityExcept(contextId: string | undefined): number {
    let highest = 0;
    for (const [id, context] of this.contexts) if (id !== contextId) highest = Math.max(highest, context.priority);
    return highest;
  }

  private play(state: string, options: PlayOptions): void {
    this.clearEndTimer();
    this.cancelRotation();
    if (state !== 'idle') this.preloader.beforeNonIdlePlay();
    const file = this.pick(state);
    const descriptor = file?.descriptor ?? null;
    if (descriptor) {
      for (const warning of analyzeDescriptor(descriptor).warnings) this.deps.logger.warn({ file: file?.path }, warning);
    }
    const loop = effectiveLoop(state, descriptor, options.loop ?? this.deps.states.loops(state));
    const phase: Phase = descriptor?.intro ? 'intro' : loop ? 'loop' : 'once';
    const previous = this.playing;
    this.show({
      state,
      file,
      loop,
      phase,
      startedAt: this.deps.clock.now(),
      priority: this.deps.states.priority(state),
      source: options.source,
      contextId: options.contextId,
    });
    const changed = previous.state !== state || previous.file?.url !== file?.url || previous.loop !== loop || previous.phase === 'outro' || !loop;
    if (changed) this.announce(previous.state, options.sessionId);
    if (!loop) this.setEndTimer('fallback', fallbackDelayMs(descriptor), () => this.finish());
    if (state === 'idle') this.scheduleRotation();
  }

  private announce(previousState: string, sessionId: string | undefined): void {
    const message = this.snapshot();
    if (message) {
      const delivered = sessionId !== undefined && this.deps.transports.sendToSession(sessionId, { ...message, reset_eyes: true });
      this.deps.transports.each('broadcastAnimation', message, delivered ? sessionId : undefined);
    } else {
      this.deps.logger.warn({ state: this.playing.state }, 'no animation file for this state in any search path');
    }
    const change = changeOf(this.playing, previousState);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.deps.logger.error({ err: error }, 'an animation state callback failed');
      }
    }
  }

  private pick(state: string): AnimationFile | null {
    const files = this.deps.library.files(state);
    if (files.length === 0) return null;
    if (!this.deps.library.isSequential(state)) return files[Math.floor(this.deps.random() * files.length)] ?? files[0] ?? null;
    const index = this.sequence.get(state) ?? 0;
    this.sequence.set(state, index + 1);
    return files[index % files.length] ?? null;
  }

  private playOutro(outroMs: number): void {
    this.cancelRotation();
    this.show({ ...this.playing, phase: 'outro', loop: false, startedAt: this.deps.clock.now() });
    const message = this.snapshot();
    if (message) this.deps.transports.each('broadcastAnimation', message);
    this.setEndTimer('outro', outroMs, () => this.enterIdle('outro'));
  }

  private show(playing: Playing): void {
    this.playing = playing;
    this.deps.changed();
  }

  /** A non-looping clip is over: a state held by its context plays again, a one-shot context ends with it. */
  private finish(): void {
    const { state, source, contextId } = this.playing;
    if (this.holds(contextId)) {
      this.play(state, { contextId, ...(source === undefined ? {} : { source }) });
      return;
    }
    if (contextId !== undefined && this.contexts.delete(contextId)) this.deps.changed();
    this.enterIdle('finished');
  }

  /**
   * Whether this context keeps its state going (think, write, talk) until it is stopped, whatever its clips
   * do: true unless the caller asked for a single play or the state is a one-shot one.
   */
  private holds(contextId: string | undefined): boolean {
    const context = contextId === undefined ? undefined : this.contexts.get(contextId);
    return context !== undefined && context.loop !== false && this.deps.states.loops(context.state);
  }

  private enterIdle(source: string, sessionId?: string): void {
    this.play('idle', sessionId === undefined ? { source } : { source, sessionId });
  }

  private setEndTimer(kind: 'fallback' | 'outro', ms: number, done: () => void): void {
    this.clearEndTimer();
    this.endKind = kind;
    this.endTimer = this.deps.clock.setTimeout(() => {
      this.endTimer = undefined;
      this.endKind = undefined;
      done();
    }, ms);
  }

  private clearEndTimer(): void {
    if (this.endTimer !== undefined) this.deps.clock.clearTimeout(this.endTimer);
    this.endTimer = undefined;
    this.endKind = undefined;
  }

  /** Idle walks its variants every 30-60 s; never for a structured clip, which plays its own intro/outro. */
  private scheduleRotation(): void {
    if (this.deps.library.files('idle').length < 2 || isStructured(this.playing.file?.descriptor ?? null)) return;
    const delay = ROTATION_MIN_MS + this.deps.random() * (ROTATION_MAX_MS - ROTATION_MIN_MS);
    this.rotationTimer = this.deps.clock.setTimeout(() => {
      this.rotationTimer = undefined;
      if (this.playing.state === 'idle') this.play('idle', { source: 'rotation' });
    }, delay);
  }

  private cancelRotation(): void {
    if (this.rotationTimer !== undefined) this.deps.clock.clearTimeout(this.rotationTimer);
    this.rotationTimer = undefined;
  }

  private checkStuck(): void {
    const { state, contextId } = this.playing;
    if (state === 'idle' || this.endKind === 'outro') return;
    // A one-shot clip ends by itself; a held one only repeats, so its end timer is no sign of life.
    if (this.endTimer !== undefined && !this.holds(contextId)) return;
    if (state === SPEAKING_STATE && this.deps.speaking()) return;
    const probe = this.probes.get(state);
    let busy = this.contexts.size > 0;
    if (busy && probe) {
      try {
        busy = probe();
      } catch (error) {
        this.deps.logger.error({ err: error, state }, 'a watchdog probe failed');
      }
    }
    if (busy) return;
    this.deps.logger.warn({ state, contexts: this.contextIds() }, 'watchdog: state is stuck, returning to idle');
    this.contexts.clear();
    this.deps.changed();
    this.enterIdle('watchdog');
  }
}
