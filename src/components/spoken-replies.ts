import type { Action, IncomingMessageInput, SubmitOptions, SubmitResult } from './messages.ts';

/** The parts of the contract's ChainPort and VoicePort this needs (named here: the contract re-exports this module). */
interface Submitting {
  submit(message: IncomingMessageInput, options?: SubmitOptions): Promise<SubmitResult>;
}
interface Speaking {
  readonly canSpeak: boolean;
  speak(interfacePath: string, text: string): Promise<boolean>;
}

export interface SpokenReplyOptions {
  chain: Submitting;
  voice: Speaking;
  logger: { warn(details: object, message: string): void };
  /** Sends one message of an answer the interface waited for as written, as its message action would; `messageId` is the chain's id of the message answered. */
  send(action: Action, messageId: string): Promise<void>;
  /** Shows that the answer is being prepared (typing, recording) until `answered` settles; it never rejects. */
  whileAnswering?(answered: Promise<void>, spoken: boolean): void;
}

/** Plain words, with nothing a voice could not carry: no file (`media`), no buttons. */
const isPlainText = (action: Action): action is Action & { payload: { text: string } } =>
  typeof action.payload.text === 'string' && action.payload.media === undefined && action.payload.buttons === undefined;

/**
 * The messages of an answer the interface waited for: each plain text spoken through Vox (whose audio
 * comes back through the platform's `send_media_<id>` action) when the question was spoken; the rest,
 * and any text Vox could not speak, sent as written.
 */
export async function deliverReplies(
  options: SpokenReplyOptions,
  answered: { interfacePath: string; messageId: string },
  delivered: readonly Action[],
  spoken: boolean,
): Promise<void> {
  for (const action of delivered) {
    if (spoken && isPlainText(action) && (await options.voice.speak(answered.interfacePath, action.payload.text))) continue;
    await options.send(action, answered.messageId);
  }
}

/**
 * Hands a chat platform's message to the chain. A voice message (`viaVoice`) is answered by voice while a
 * Vox engine is on: it is submitted with `awaitsReply` and the talk animation, and the interface speaks the
 * answer itself; otherwise the chain sends the answer through the interface's message action as usual.
 * Waits only until the message is queued (an attention command's notice is delivered first), so one long
 * answer never holds the messages after it; a failed spoken answer is logged.
 */
export async function submitWithVoice(options: SpokenReplyOptions, message: IncomingMessageInput, viaVoice: boolean): Promise<SubmitResult> {
  const spoken = viaVoice && options.voice.canSpeak;
  const result = await options.chain.submit(
    spoken ? { ...message, hints: { ...message.hints, animation: 'talk' } } : message,
    spoken ? { awaitsReply: true } : {},
  );
  const answered = { interfacePath: message.interfacePath, messageId: result.messageId };
  if (result.status === 'command') await deliverReplies(options, answered, result.delivered, spoken);
  if (result.status === 'queued') {
    const sent = result.done
      .then((outcome) => (spoken ? deliverReplies(options, answered, outcome.delivered, true) : undefined))
      .catch((error: unknown) => options.logger.warn({ err: error, interface_path: message.interfacePath }, 'a spoken answer could not be sent'));
    options.whileAnswering?.(sent, spoken);
  }
  return result;
}
