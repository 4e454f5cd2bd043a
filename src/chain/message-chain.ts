import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { linkedSignal, type LinkedSignal } from './linked-signal.ts';
import type { BodyServer } from '../body/body-server.ts';
import type { Clock, TimerHandle } from '../body/clock.ts';
import type { CompletedTurn, CortexInstance, InterfaceDefinition, PromptTurn } from '../components/contract.ts';
import type { Asker, Delivery } from '../components/delivery.ts';
import {
  IncomingMessageSchema,
  type CheckedChainPort,
  messageActionOf,
  type Action,
  type ActionOrigin,
  type AttentionCommand,
  type ChainOutcome,
  type IncomingMessage,
  type IncomingMessageInput,
  type SubmitOptions,
  type SubmitResult,
} from '../components/messages.ts';
import type { ComponentEntry, ComponentRegistry } from '../components/registry.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import type { Metrics } from '../system/metrics.ts';
import { AttentionModes, parseAttentionCommand } from './attention.ts';
import { messageAnimation, noAnimation, registerBusyProbe, type MessageAnimation } from './message-animation.ts';
import { DeferredWork, deferredAnimation, heldAnimation } from './deferred-work.ts';
import { collectStream } from './collect.ts';
import { ConversationQueue } from './conversation-queue.ts';
import { NO_ENGINE_NOTICE, type CortexSelector } from './cortex-selector.ts';
import { dispatchReply, ttsSpeakSpec, TTS_SPEAK } from './dispatch.ts';
import { emotionCues, EmotionTagStripper } from './emotion-tags.ts';
import type { HistoryPort } from './history-adapter.ts';
import { parseReply } from './parse-reply.ts';
import { buildPrompt } from './prompt.ts';
import { UserRateLimiter } from './rate-limiter.ts';
import type { SpeechSlot } from './speech.ts';
import type { OperatorRule } from './trainers.ts';

export type { ChainOutcome, SubmitOptions, SubmitResult };

/** An anticipated message the speaker went on from (SubmitOptions.confirmed resolved false); waits for the verdict. */
async function withdrawn(options: SubmitOptions): Promise<boolean> {
  return options.confirmed !== undefined && !(await options.confirmed);
}

/** A signal that aborts when an anticipated message is withdrawn. */
function withdrawal(confirmed: Promise<boolean>): AbortSignal {
  const controller = new AbortController();
  void confirmed.then((kept) => kept || controller.abort(new Error('the anticipated message was withdrawn')));
  return controller.signal;
}

/** How long a component's prompt context may take (a weather provider that does not answer must not hold every message). */
export const CONTEXT_BUDGET_MS = 500;

export const ENGINE_ERROR_NOTICE = 'Sorry, I could not think of an answer just now. Please try again in a moment.';

export interface ChainOptions {
  registry: ComponentRegistry;
  delivery: Delivery;
  operators: OperatorRule;
  cortex: CortexSelector;
  history: HistoryPort;
  body: BodyServer;
  config: ConfigStore;
  logger: Logger;
  speech: SpeechSlot;
  /** Where the model's first token, its whole answer and the chain's own time are recorded. */
  metrics?: Pick<Metrics, 'observeStage'>;
  /** The process's clock: the rate limits, CORTEX_TIMEOUT_S and the context budget run on it. */
  clock: Clock;
}

/**
 * The message chain: commands and attention, rate limits, history, the per-conversation queue, the
 * prompt, the active Cortex engine, and the reply's actions; the body follows each message from think
 * to idle.
 */
export class MessageChain implements CheckedChainPort {
  readonly attention = new AttentionModes();
  private readonly queue: ConversationQueue;
  private readonly limiter: UserRateLimiter;
  private readonly logger: Logger;
  private readonly stopping = new AbortController();
  /** What a message that brings its own history does once its engine's request is out: its save, the body's moves. */
  private readonly afterRequest = new DeferredWork();
  private inFlight = 0;

  constructor(private readonly options: ChainOptions) {
    // Every answer in progress listens to it: as many listeners as CHAT_MAX_PARALLEL allows.
    setMaxListeners(0, this.stopping.signal);
    this.logger = options.logger.child({ component: 'chain' });
    const { config } = options;
    this.queue = new ConversationQueue(() => config.get('CHAT_MAX_PARALLEL'));
    this.limiter = new UserRateLimiter(
      () => ({ burst: config.get('CHAT_RATE_LIMIT_BURST'), perMinute: config.get('CHAT_RATE_LIMIT_PER_MINUTE') }),
      () => options.clock.now(),
    );
    registerBusyProbe(options.body, () => this.inFlight > 0);
  }

  /** Messages being answered or waiting. */
  get pending(): number {
    return this.queue.size;
  }

  /**
   * Hands a message to the chain; resolves once it is saved and queued (or turned away), not answered.
   * A message that brings its own history (the compat API) reads nothing stored: the engine is asked
   * first, and its save and the body's think and write follow in the same turn of the event loop.
   */
  async submit(input: IncomingMessageInput, options: SubmitOptions = {}): Promise<SubmitResult> {
    return this.submitMessage(IncomingMessageSchema.parse(input), options);
  }

  /** `submit` for a message already whole and checked (CheckedChainPort): the schema's pass was a large part of a compat request's way to the engine. */
  async submitMessage(message: IncomingMessage, options: SubmitOptions = {}): Promise<SubmitResult> {
    const messageId = message.messageId ?? randomUUID();
    const origin: ActionOrigin = {
      interfaceId: message.interfaceId,
      interfacePath: message.interfacePath,
      messageId,
      senderId: message.senderId,
      metadata: message.metadata,
    };
    const { config } = this.options;
    const delivered: Action[] = [];
    const asker: Asker | undefined = options.awaitsReply ? { take: (action) => void delivered.push(action) } : undefined;

    // The limit comes before anything reads the text: a flooding sender costs a bucket lookup per message.
    const sender = this.limitedSender(message);
    if (sender) {
      const decision = this.limiter.take(sender);
      if (!decision.allowed) {
        this.logger.warn({ interface_path: message.interfacePath, sender_id: message.senderId }, 'message dropped by the per-user rate limit');
        return { status: 'rate_limited', messageId, retryAfterMs: decision.retryAfterMs };
      }
    }
    const command = parseAttentionCommand(message.text, { sleep: config.get('CHAT_SLEEP_COMMANDS'), wake: config.get('CHAT_WAKE_COMMANDS') });
    if (command) {
      // Commands do not use up the limit; only a sender already over it is refused them.
      if (sender) this.limiter.refund(sender);
      await this.runCommand(command, message, origin, asker);
      return { status: 'command', messageId, command, delivered };
    }
    const save = () =>
      this.options.history.save({
        interfacePath: message.interfacePath,
        text: message.text,
        senderId: message.senderId,
        senderName: message.senderName,
      });
    const { confirmed } = options;
    // An anticipated message is saved once kept; its answer reads the history with it added (answer()).
    const saved = message.history ? this.afterRequest.later(save) : confirmed ? confirmed.then((kept) => (kept ? save() : '')) : save();
    if (confirmed && sender) void confirmed.then((kept) => kept || this.limiter.refund(sender));
    if (message.history || confirmed)
      saved.catch((error: unknown) =>
        this.logger.error({ err: error, interface_path: message.interfacePath }, 'the message could not be saved to the chat history'),
      );
    else await saved;
    if (!this.attention.shouldAnswer(message.interfacePath, message)) return { status: 'ignored', messageId, reason: 'asleep' };

    const animation = confirmed ? heldAnimation(this.animationFor(message, messageId), confirmed) : this.animationFor(message, messageId);
    let settle: (outcome: ChainOutcome) => void = () => undefined;
    const done = new Promise<ChainOutcome>((resolve) => (settle = resolve));
    this.inFlight += 1;
    // Before the push: the lane may start the job at once, and its idle must come after this think.
    animation.think();
    const queued = this.queue.push(message.interfacePath, async () => {
      try {
        settle({ ...(await this.answer(message, origin, animation, saved, options, asker)), delivered });
      } finally {
        this.inFlight -= 1;
      }
    });
    if (!queued) {
      this.inFlight -= 1;
      animation.end();
      this.logger.warn({ interface_path: message.interfacePath }, 'conversation queue is full; message refused');
      return { status: 'busy', messageId };
    }
    return { status: 'queued', messageId, done };
  }

  /** Aborts the answers in progress (shutdown). */
  stop(): void {
    this.stopping.abort(new Error('the chain is stopping'));
  }

  /** The sender's rate-limit key; undefined when exempt (an interface whose senders are all trusted, a trainer). */
  private limitedSender(message: IncomingMessage): string | undefined {
    if (this.definitionOf(message.interfaceId)?.trustedSenders === true) return undefined;
    if (this.options.operators.isTrainer(message.interfaceId, message.senderId)) return undefined;
    return `${message.interfaceId}:${message.senderId}`;
  }

  private definitionOf(interfaceId: string): InterfaceDefinition | undefined {
    const owner = this.options.registry.list('interface').find((entry) => (entry.definition as InterfaceDefinition | undefined)?.interfaceId === interfaceId);
    return owner?.definition as InterfaceDefinition | undefined;
  }

  private animationFor(message: IncomingMessage, messageId: string): MessageAnimation {
    if (this.definitionOf(message.interfaceId)?.ownsAnimation) return noAnimation;
    const animation = messageAnimation(this.options.body, this.logger, `chain:${messageId}`, message.hints.sessionId, message.interfaceId);
    return message.history ? deferredAnimation(animation, this.afterRequest) : animation;
  }

  /** `saved`: the message's place in the history; users' later messages, still queued, are not its context yet. */
  private async answer(
    message: IncomingMessage,
    origin: ActionOrigin,
    animation: MessageAnimation,
    saved: Promise<string>,
    options: SubmitOptions,
    asker: Asker | undefined,
  ): Promise<Omit<ChainOutcome, 'delivered'>> {
    const { cortex, config } = this.options;
    const started = performance.now();
    let generation: LinkedSignal | undefined;
    if (options.signal?.aborted) {
      animation.end();
      return { outcome: 'cancelled' };
    }
    try {
      const engine = this.engineFor(options.engine);
      if (!engine) {
        animation.end();
        if (await withdrawn(options)) return { outcome: 'cancelled' };
        await this.notify(origin, cortex.notice() ?? NO_ENGINE_NOTICE, asker);
        return { outcome: 'notice' };
      }
      const turn: PromptTurn = {
        interfaceId: message.interfaceId,
        interfacePath: message.interfacePath,
        senderId: message.senderId,
        senderName: message.senderName,
        text: message.text,
      };
      const question = (username: string) => ({ role: 'user' as const, username, text: message.text });
      const messages = buildPrompt({
        promptOverride: config.get('PROMPT_OVERRIDE'),
        location: config.get('PERSONA_LOCATION'),
        actions: this.promptActions(),
        context: await this.pluginContext(turn),
        history: message.history
          ? [...message.history.map((turn) => ({ role: turn.role, username: '', text: turn.content })), question(message.senderName)]
          : options.confirmed
            ? // Not saved yet: the message is added as its row will read.
              [...(await this.options.history.load(message.interfacePath)), question(message.senderName || message.senderId)]
            : await this.storedHistory(message.interfacePath, await saved),
        interfacePath: message.interfacePath,
      });
      const seconds = config.get('CORTEX_TIMEOUT_S');
      generation = linkedSignal([this.stopping.signal, options.signal, options.confirmed && withdrawal(options.confirmed)], {
        ms: seconds * 1000,
        reason: () => new Error(`no complete answer within ${seconds} s (CORTEX_TIMEOUT_S)`),
        clock: this.options.clock,
      });
      const { signal } = generation;
      animation.generating(message.hints.animation ?? 'write');
      const asked = performance.now();
      const observe = (stage: 'llm_first_token' | 'llm_total' | 'chain', seconds: number) => {
        this.options.metrics?.observeStage(stage, seconds);
        options.onStage?.(stage, seconds);
      };
      let firstToken = true;
      // Emotion tags leave the text here, before any stream, chat, history row or voice sees it.
      const tags = new EmotionTagStripper();
      const onDelta = (delta: string) => {
        if (firstToken) observe('llm_first_token', (performance.now() - asked) / 1000);
        firstToken = false;
        const shown = tags.push(delta);
        if (shown !== '') options.onDelta?.(shown);
      };
      await collectStream(
        engine.generate({
          messages,
          interfacePath: message.interfacePath,
          message: { senderId: message.senderId, senderName: message.senderName, text: message.text },
          signal,
          onUsage: options.onUsage,
        }),
        signal,
        onDelta,
      );
      observe('llm_total', (performance.now() - asked) / 1000);
      const tail = tags.flush();
      if (tail !== '') options.onDelta?.(tail);
      const parsed = parseReply(tags.text);
      if (await withdrawn(options)) {
        animation.end();
        return { outcome: 'cancelled' };
      }
      // An engine that answered within the turn it was asked in: the user's save comes before the reply's.
      this.afterRequest.flush();
      // An anticipated message's row, saved once it was kept, comes before the reply's too.
      if (options.confirmed) await saved;
      if (parsed.text === '' && parsed.actions.length === 0) throw new Error('the engine answered nothing');
      const report = await dispatchReply(parsed, origin, {
        delivery: this.options.delivery,
        asker,
        speech: this.options.speech.current,
        saveOwn: (path, text) => this.options.history.saveOwn(path, text),
        logger: this.logger,
      });
      animation.end();
      observe('chain', (performance.now() - started) / 1000);
      this.announceReply({ ...turn, reply: parsed.text, emotions: emotionCues(tags.found, parsed.actions) });
      return { outcome: 'answered', report };
    } catch (error) {
      animation.end();
      if (await withdrawn(options)) return { outcome: 'cancelled' };
      if (options.signal?.aborted) {
        this.logger.info({ interface_path: message.interfacePath, reason: String(options.signal.reason) }, 'the asker went away; the answer was cancelled');
        return { outcome: 'cancelled' };
      }
      this.logger.error(
        { err: error, engine: cortex.name, interface_path: message.interfacePath },
        'the Cortex engine failed; the user gets a short error message',
      );
      await this.notify(origin, ENGINE_ERROR_NOTICE, asker);
      return { outcome: 'error' };
    } finally {
      generation?.dispose();
    }
  }

  private async storedHistory(interfacePath: string, savedAt: string) {
    return (await this.options.history.load(interfacePath)).filter((item) => item.role === 'assistant' || item.timestamp <= savedAt);
  }

  private engineFor(name: string | undefined): CortexInstance | undefined {
    return (name === undefined ? undefined : this.options.registry.engine(name)) ?? this.options.cortex.engine();
  }

  private promptActions() {
    const actions = [...this.options.registry.actions().values()].map(({ type, spec }) => ({ type, spec }));
    if (this.options.speech.current) actions.push({ type: TTS_SPEAK, spec: ttsSpeakSpec });
    return actions;
  }

  /** The active components' prompt context, asked of all at once; a slow one is left out of this message. */
  private async pluginContext(turn: PromptTurn): Promise<string[]> {
    const parts = await Promise.all(this.options.registry.active().map((entry) => this.contextOf(entry, turn)));
    return parts.filter((text): text is string => Boolean(text));
  }

  private contextOf(entry: ComponentEntry, turn: PromptTurn): string | undefined | Promise<string | undefined> {
    const failed = (error: unknown) => {
      this.logger.warn({ err: error, name: entry.name }, 'a component could not add its prompt context');
      return undefined;
    };
    let context: string | undefined | Promise<string | undefined>;
    try {
      context = entry.instance?.promptContext?.(turn);
    } catch (error) {
      return failed(error);
    }
    // Most contexts are ready at once (the time); only a pending one gets a deadline.
    if (!(context instanceof Promise)) return context;
    const { clock } = this.options;
    let timer: TimerHandle;
    const late = new Promise<undefined>((resolve) => {
      timer = clock.setTimeout(() => {
        this.logger.warn({ name: entry.name, budget_ms: CONTEXT_BUDGET_MS }, "a component's prompt context was not ready in time; the message goes without it");
        resolve(undefined);
      }, CONTEXT_BUDGET_MS);
    });
    return Promise.race([context.catch(failed), late]).finally(() => clock.clearTimeout(timer));
  }

  /** Tells the active components an answer went out; their work runs after this turn and never holds the chain. */
  private announceReply(turn: CompletedTurn): void {
    for (const entry of this.options.registry.active()) {
      const hook = entry.instance?.afterReply;
      if (!hook) continue;
      const failed = (error: unknown) => this.logger.warn({ err: error, name: entry.name }, 'a component failed after a reply');
      queueMicrotask(() => {
        try {
          Promise.resolve(hook.call(entry.instance, turn)).catch(failed);
        } catch (error) {
          failed(error);
        }
      });
    }
  }

  /** A notice from the chain itself (not the model's words, so not saved as `self`). */
  private async notify(origin: ActionOrigin, text: string, asker: Asker | undefined): Promise<void> {
    const result = await this.options.delivery.deliver(
      origin,
      { type: messageActionOf(origin.interfaceId), payload: { text, interface_path: origin.interfacePath } },
      asker,
    );
    if (!result.delivered) this.logger.warn({ interface_path: origin.interfacePath, text, reason: result.reason }, 'a notice could not be delivered');
  }

  private async runCommand(command: AttentionCommand, message: IncomingMessage, origin: ActionOrigin, asker: Asker | undefined): Promise<void> {
    const path = message.interfacePath;
    if (command !== 'status' && !this.options.operators.mayOperate(message.interfaceId, message.senderId)) {
      await this.notify(origin, 'Only an operator (TRAINER_IDS) can change my attention in this chat.', asker);
      return;
    }
    if (command === 'sleep') this.attention.set(path, true, message.group);
    if (command === 'wake') this.attention.set(path, false, message.group);
    const asleep = this.attention.isAsleep(path, message.group);
    const replies = {
      sleep: 'Going to sleep: I will answer only mentions and replies here.',
      wake: 'I am awake and answering every message here.',
      status: asleep ? 'Status: asleep (answering only mentions and replies).' : 'Status: awake (answering every message).',
    };
    await this.notify(origin, replies[command], asker);
  }
}
