import type { Clock, TimerHandle } from '../body/clock.ts';
import { deliveredText, type TokenUsage } from '../components/contract.ts';
import type { CheckedChainPort } from '../components/messages.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import type { PromptTurn } from './conversation.ts';
import { tooManyRequests } from './client-errors.ts';
import { ReplyStream } from './reply-stream.ts';

export const COMPAT_INTERFACE = 'compat';
/** Who speaks on the compat port: a trusted client without a user identity of its own. */
export const COMPAT_SENDER = 'compat-client';
export const compatPath = (conversation: string) => `${COMPAT_INTERFACE}/${conversation}`;

/** `stop`: answered; `timeout`: stalled past COMPAT_STREAM_TIMEOUT or COMPAT_COMPLETION_TIMEOUT; `cancelled`: the client left. */
export type FinishReason = 'stop' | 'timeout' | 'cancelled';

export interface AskInput {
  conversation: string;
  text: string;
  history: PromptTurn[];
  /** A streaming answer may pause COMPAT_STREAM_TIMEOUT between chunks; another has COMPAT_COMPLETION_TIMEOUT in all. */
  streaming: boolean;
  /** The Cortex engine the client chose through the model name; the active one otherwise. */
  engine?: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The chain accepted the message (it waits in its conversation's queue or is being answered). */
  onAccepted?: () => void;
  /** Reply text as it may be shown, while it streams. */
  onText?: (text: string) => void;
}

/** Monotonic instants (process.hrtime.bigint, nanoseconds). */
export interface AskTimings {
  start: bigint;
  /** The message is saved and queued in the chain. */
  queued?: bigint;
  firstDelta?: bigint;
  lastDelta?: bigint;
  end: bigint;
}

export interface AskResult {
  text: string;
  reason: FinishReason;
  /** Why a timed-out answer ended, or the notice of one that failed midway, for the final chunk. */
  error?: string;
  /** As the engine counted them, else estimated (`estimateUsage`). */
  usage: TokenUsage;
  timings: AskTimings;
}

/** OpenAI's rule of thumb for English text; only for engines that count nothing themselves. */
const CHARACTERS_PER_TOKEN = 4;

/**
 * Token counts for an answer whose engine reported none (the manual engine, a server that ignores
 * `include_usage`, an answer cut short): the characters of the conversation the client sent and of the
 * answer, four to a token. Anima's own system prompt is not seen here, so the prompt count is low.
 */
export function estimateUsage(input: Pick<AskInput, 'text' | 'history'>, answer: string): TokenUsage {
  const promptCharacters = input.history.reduce((sum, turn) => sum + turn.content.length, input.text.length);
  return { promptTokens: Math.ceil(promptCharacters / CHARACTERS_PER_TOKEN), completionTokens: Math.ceil(answer.length / CHARACTERS_PER_TOKEN) };
}

class StallError extends Error {}

/**
 * The compat port's side of the message chain: each request becomes a message on
 * `compat/<conversation>`; the engine's deltas stream back as they come, and the reply the chain hands
 * back with the outcome completes the answer. Framework-free; the HTTP routes adapt it.
 */
export class CompatBridge {
  /** Answers in progress: how to stop each, and when it has finished. */
  private readonly inFlight = new Map<AbortController, Promise<void>>();

  constructor(private readonly deps: { chain: CheckedChainPort; config: ConfigStore; logger: Logger; clock: Clock }) {}

  /** The clock of its stall timers, which the routes' header flush shares. */
  get clock(): Clock {
    return this.deps.clock;
  }

  /** Ends every answer in progress (shutdown); resolves once their clients have had their final chunk. */
  async cancelAll(): Promise<void> {
    for (const controller of this.inFlight.keys()) controller.abort(new StallError('the server is stopping'));
    await Promise.all(this.inFlight.values());
    // The routes write the final chunks in the continuations of ask(), which run before this.
    await new Promise((resolve) => setImmediate(resolve));
  }

  async ask(input: AskInput): Promise<AskResult> {
    const timings: AskTimings = { start: process.hrtime.bigint(), end: 0n };
    const controller = new AbortController();
    const clientGone = () => controller.abort(input.signal.reason);
    if (input.signal.aborted) clientGone();
    input.signal.addEventListener('abort', clientGone, { once: true });
    const stall = this.stallTimer(controller, input.streaming);
    const stream = new ReplyStream(input.onText);
    let usage: TokenUsage | undefined;
    let finished: () => void = () => undefined;
    this.inFlight.set(controller, new Promise<void>((resolve) => (finished = resolve)));
    try {
      // Whole as the schema would make it: the routes checked the text and history against its limits.
      const submitted = await this.deps.chain.submitMessage(
        {
          interfaceId: COMPAT_INTERFACE,
          interfacePath: compatPath(input.conversation),
          text: input.text,
          senderId: COMPAT_SENDER,
          senderName: '',
          mentioned: false,
          replyToSelf: false,
          group: false,
          hints: {},
          history: input.history,
          metadata: {},
        },
        {
          awaitsReply: true,
          signal: controller.signal,
          engine: input.engine,
          onUsage: (counted) => (usage = counted),
          onDelta: (delta) => {
            const now = process.hrtime.bigint();
            timings.firstDelta ??= now;
            timings.lastDelta = now;
            stall.touch();
            stream.push(delta);
          },
        },
      );
      timings.queued = process.hrtime.bigint();
      if (submitted.status === 'rate_limited') throw tooManyRequests(`Too many requests; retry in ${Math.ceil(submitted.retryAfterMs / 1000)} s`);
      if (submitted.status === 'busy') throw tooManyRequests('This conversation already has too many requests waiting; retry when one is answered');
      // An aborted answer still waiting in its conversation's queue ends now; the chain skips it later.
      input.onAccepted?.();
      const outcome = submitted.status === 'queued' ? await Promise.race([submitted.done, abortedPromise(controller.signal)]) : undefined;
      const reason: FinishReason = !controller.signal.aborted ? 'stop' : controller.signal.reason instanceof StallError ? 'timeout' : 'cancelled';
      const delivered = submitted.status === 'command' ? submitted.delivered : (outcome?.delivered ?? []);
      const ending =
        reason === 'stop'
          ? finalText(stream, deliveredText(delivered), { failed: outcome?.outcome === 'error', streaming: input.streaming })
          : { text: stream.shown };
      const error = reason === 'timeout' ? (controller.signal.reason as Error).message : ending.error;
      return {
        text: ending.text,
        reason,
        timings: { ...timings, end: process.hrtime.bigint() },
        usage: usage ?? estimateUsage(input, stream.shown),
        ...(error ? { error } : {}),
      };
    } finally {
      stall.clear();
      input.signal.removeEventListener('abort', clientGone);
      this.inFlight.delete(controller);
      finished();
    }
  }

  /** COMPAT_STREAM_TIMEOUT restarts at each delta; COMPAT_COMPLETION_TIMEOUT runs once. 0 disables either. */
  private stallTimer(controller: AbortController, streaming: boolean) {
    const { config, clock } = this.deps;
    const seconds = streaming ? config.get('COMPAT_STREAM_TIMEOUT') : config.get('COMPAT_COMPLETION_TIMEOUT');
    const message = streaming
      ? `The model sent nothing for ${seconds} s (COMPAT_STREAM_TIMEOUT); the answer was stopped`
      : `The answer took longer than ${seconds} s (COMPAT_COMPLETION_TIMEOUT) and was stopped`;
    const windowMs = seconds * 1000;
    let touched = clock.now();
    // One timer per window rather than one per chunk: when it falls due it waits out what the last delta
    // restarted, and stops the answer only after a whole window of silence.
    const due = () => {
      const quiet = clock.now() - touched;
      if (streaming && quiet < windowMs) timer = clock.setTimeout(due, windowMs - quiet);
      else controller.abort(new StallError(message));
    };
    let timer: TimerHandle | undefined = seconds > 0 ? clock.setTimeout(due, windowMs) : undefined;
    return {
      touch: () => {
        touched = clock.now();
      },
      clear: () => {
        if (timer !== undefined) clock.clearTimeout(timer);
      },
    };
  }
}

/**
 * The answer's text once the chain is done. A notice cannot continue the words of a reply that failed
 * halfway through its stream: it becomes the stream's error, which the Ollama and OpenAI clients raise.
 * A failed answer that was not streamed is the notice alone (nobody saw its first words).
 */
function finalText(stream: ReplyStream, delivered: string, answer: { failed: boolean; streaming: boolean }): { text: string; error?: string } {
  if (answer.failed && !answer.streaming) return { text: delivered };
  if (answer.failed && stream.shown !== '') return { text: stream.shown, error: delivered };
  stream.finish(delivered);
  return { text: stream.shown };
}

function abortedPromise(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}
