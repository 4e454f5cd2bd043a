import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { resolveModel } from '../catalogue.ts';
import type { AskInput, CompatBridge } from '../compat-bridge.ts';
import { compatBridge } from '../compat-interface.ts';
import { splitConversation } from '../conversation.ts';
import { clientGone, responseStream } from '../http-stream.ts';
import { completion, completionChunk, completionIdentity, finalChunk, openAiError, openAiTurns, OpenAiChatRequestSchema, usageChunk } from '../openai.ts';
import { catalogue, conversationOf, parseBody } from './shared.ts';

const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

type Question = Omit<AskInput, 'signal' | 'onText' | 'streaming'>;

/** Server-sent events as OpenAI sends them: a role chunk, content chunks, the finish chunk, usage, `[DONE]`. */
async function streamAnswer(reply: FastifyReply, bridge: CompatBridge, question: Question, options: { model: string; includeUsage: boolean }) {
  const identity = completionIdentity(options.model);
  const out = responseStream(reply, 'text/event-stream; charset=utf-8', bridge.clock);
  let first = true;
  const send = (text: string) => {
    out.write(event(completionChunk(identity, first ? { role: 'assistant', content: text } : { content: text })));
    first = false;
  };
  try {
    const result = await bridge.ask({ ...question, streaming: true, signal: clientGone(reply), onAccepted: out.open, onText: send });
    if (result.reason === 'cancelled') {
      reply.raw.destroy();
      return reply;
    }
    if (first) send('');
    out.write(event(finalChunk(identity, result)));
    if (options.includeUsage) out.write(event(usageChunk(identity, result)));
    // A stalled or failed answer ends with an error event, which the OpenAI clients raise as an APIError.
    if (result.error) out.write(event(result.reason === 'timeout' ? openAiError(504, result.error, { type: 'timeout' }) : openAiError(502, result.error)));
    out.end('data: [DONE]\n\n');
  } catch (error) {
    if (!out.started) throw error;
    reply.log.error({ err: error }, 'a streamed compat answer failed');
    out.end(`${event(openAiError(500, 'Internal server error'))}data: [DONE]\n\n`);
  }
  return reply;
}

/** `POST /v1/chat/completions`, beyond the spec: OpenAI-only tools reach Anima too. */
export async function openAiChatRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  app.post('/v1/chat/completions', async (request, reply) => {
    const body = parseBody(OpenAiChatRequestSchema, request.body);
    const chosen = resolveModel(catalogue(services), body.model);
    const model = body.model ?? chosen.id;
    const turns = openAiTurns(body);
    const split = splitConversation(turns, services.config.get('COMPAT_MAX_HISTORY'));
    if (!split) throw badRequest('invalid request: the messages need a user message with text');
    const question: Question = { conversation: conversationOf(request, turns), text: split.text, history: split.history, engine: chosen.engine };
    const bridge = compatBridge(services);
    if (body.stream === true) return streamAnswer(reply, bridge, question, { model, includeUsage: body.stream_options?.include_usage === true });
    const result = await bridge.ask({ ...question, streaming: false, signal: clientGone(reply) });
    return completion(completionIdentity(model), result);
  });
}
