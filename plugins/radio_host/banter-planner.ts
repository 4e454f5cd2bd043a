import type { Logger } from 'pino';
import type { ChatTurn, SynthesizedSpeech } from '../../src/components/contract.ts';
import type { RadioAudioFolder } from './audio-folder.ts';
import { banterPrompt, type ListenerMessage, spokenLine, templateBanter, type Transition } from './banter-text.ts';

export interface PreparedBanter {
  text: string;
  variant: 'template' | 'model';
  path: string;
  durationS: number;
  /** The `banter_ready` activity row: `GET /api/radio/audio?id=`. */
  audioId: number;
}

export interface PlannerDependencies {
  language(): string;
  stationName(): string;
  listeners(): Promise<ListenerMessage[]>;
  /** Whether Vox can speak now (at start-up it comes up after the components). */
  canSpeak(): boolean;
  /** The Vox engine (RADIO_HOST_VOX_ENGINE, else the active one) speaking into a WAV file. */
  synthesize(text: string): Promise<SynthesizedSpeech>;
  /** Undefined while no language model is active: the template is all there is. */
  complete: ((messages: ChatTurn[], signal: AbortSignal) => Promise<string>) | undefined;
  record(kind: 'banter_ready' | 'error', message: string, data: Record<string, unknown>): Promise<number>;
  /** A line was spoken into this WAV: its encoding for the air starts now, not at the break. */
  spoken(path: string): void;
  audio: RadioAudioFolder;
  now(): number;
  random(): number;
  logger: Logger;
}

interface Plan {
  /** The template's audio: quick, always there unless speech itself fails. */
  template: Promise<PreparedBanter | undefined>;
  /** The best audio so far (the model's replaces the template's once spoken). */
  best: PreparedBanter | undefined;
  /** Stops the model's variant once the break has begun: it would only be wasted. */
  abort: AbortController;
}

export const transitionKey = (transition: Transition) => `${transition.ended.id}>${transition.next?.id ?? ''}`;

/**
 * Banter prepared ahead, one plan per transition: the template line spoken at once, the language model's
 * line spoken when it arrives. A break takes whatever is ready, so it never waits on the model.
 */
export class BanterPlanner {
  private readonly plans = new Map<string, Plan>();
  private readonly work = new Set<Promise<unknown>>();

  constructor(private readonly deps: PlannerDependencies) {}

  /** Starts preparing a transition's banter (once; again later while speech is not up yet). */
  prepare(transition: Transition): void {
    if (!this.plans.has(transitionKey(transition)) && this.deps.canSpeak()) this.plan(transition, true);
  }

  /** The best banter for this transition now; waits only for the template's audio, never for the model. */
  async take(transition: Transition): Promise<PreparedBanter | undefined> {
    const key = transitionKey(transition);
    let plan = this.plans.get(key);
    // Not prepared (speech was not up yet) or its speech failed: one more try now, the template only.
    if (!plan || (!plan.best && !(await plan.template))) plan = this.plan(transition, false);
    plan.abort.abort();
    return plan.best ?? (await plan.template) ?? plan.best;
  }

  private plan(transition: Transition, withModel: boolean): Plan {
    this.plans.get(transitionKey(transition))?.abort.abort();
    const plan: Plan = { template: Promise.resolve(undefined), best: undefined, abort: new AbortController() };
    this.plans.set(transitionKey(transition), plan);
    plan.template = this.speak(templateBanter(transition, this.deps.language(), this.deps.random()), 'template', transition).then((ready) => {
      // The model's line may have been spoken first; the template never replaces it.
      if (ready && !plan.best) plan.best = ready;
      return ready;
    });
    this.track(plan.template);
    // Not tracked while the model thinks (a break never waits for it either); its speech is.
    if (withModel) void this.modelVariant(transition, plan);
    return plan;
  }

  /** Resolves once every line started so far is spoken or dropped (tests wait on it); not a model still thinking. */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  private track(work: Promise<unknown>): void {
    this.work.add(work);
    void work.catch(() => undefined).finally(() => this.work.delete(work));
  }

  /** Drops every plan but those of these transitions (the station moved on). */
  keepOnly(transitions: Transition[]): void {
    const kept = new Set(transitions.map(transitionKey));
    for (const [key, plan] of this.plans) {
      if (kept.has(key)) continue;
      plan.abort.abort();
      this.plans.delete(key);
    }
  }

  clear(): void {
    this.keepOnly([]);
  }

  private async modelVariant(transition: Transition, plan: Plan): Promise<void> {
    const { complete } = this.deps;
    if (!complete) return;
    try {
      const listeners = await this.deps.listeners();
      const messages = banterPrompt(transition, { language: this.deps.language(), stationName: this.deps.stationName(), listeners });
      const line = spokenLine(await complete(messages, plan.abort.signal));
      if (line === '' || plan.abort.signal.aborted) return;
      const spoken = this.speak(line, 'model', transition).then((ready) => {
        if (ready && !plan.abort.signal.aborted) plan.best = ready;
      });
      this.track(spoken);
      await spoken;
    } catch (error) {
      // Optional: without a model (or when it fails) the template line is the banter.
      if (!plan.abort.signal.aborted) this.deps.logger.debug({ err: error }, 'the language model gave no banter; the template line stays');
    }
  }

  private async speak(text: string, variant: PreparedBanter['variant'], transition: Transition): Promise<PreparedBanter | undefined> {
    try {
      const speech = await this.deps.synthesize(text);
      const path = await this.deps.audio.adopt(speech.path, this.deps.now());
      const audioId = await this.deps.record('banter_ready', `Banter ready (${variant}) after "${transition.ended.title}": ${text}`, {
        path,
        variant,
        text,
        duration_s: speech.durationS,
      });
      this.deps.spoken(path);
      return { text, variant, path, durationS: speech.durationS, audioId };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ err: error, variant }, 'banter could not be spoken');
      await this.deps.record('error', `Banter could not be spoken (${variant}): ${reason}`, { variant }).catch(() => undefined);
      return undefined;
    }
  }
}
