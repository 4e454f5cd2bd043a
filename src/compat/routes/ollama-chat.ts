import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { resolveModel } from '../catalogue.ts';
import type { AskInput, AskResult, CompatBridge } from '../compat-bridge.ts';
import { compatBridge } from '../compat-interface.ts';
import { splitConversation, type ClientTurn } from '../conversation.ts';
import { clientGone, responseStream } from '../http-stream.ts';
import {
  chatChunk,
  chatFinal,
  chatLoaded,
  generateChunk,
  generateFinal,
  generateLoaded,
  loadReason,
  OllamaChatRequestSchema,
  OllamaGenerateRequestSchema,
} from '../ollama.ts';
import { catalogue, conversationOf, parseBody } from './shared.ts';

interface Frames {
  chunk(model: string, text: string): unknown;
  final(model: string, text: string, result: AskResult): unknown;
}

const chatFrames: Frames = { chunk: chatChunk, final: chatFinal };
const generateFrames: Frames = { chunk: generateChunk, final: generateFinal };
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

type Question = Omit<AskInput, 'signal' | 'onText' | 'streaming'>;

/**
 * One answer in Ollama's framing: NDJSON chunks then a final chunk with the figures, or with
 * `stream: false` the final chunk alone, holding the whole text. A client that leaves gets nothing more.
 */
async function answer(reply: FastifyReply, bridge: CompatBridge, question: Question, options: { model: string; stream: boolean; frames: Frames }) {
  const { model, frames } = options;
  const signal = clientGone(reply);
  if (!options.stream) {
    const result = await bridge.ask({ ...question, streaming: false, signal });
    return frames.final(model, result.text, result);
  }
  const out = responseStream(reply, 'application/x-ndjson', bridge.clock);
  try {
    const result = await bridge.ask({
      ...question,
      streaming: true,
      signal,
      onAccepted: out.open,
      onText: (text) => out.write(line(frames.chunk(model, text))),
    });
    if (result.reason === 'cancelled') reply.raw.destroy();
    else out.end(line(frames.final(model, '', result)));
  } catch (error) {
    if (!out.started) throw error;
    reply.log.error({ err: error }, 'a streamed compat answer failed');
    out.end(line({ error: 'Internal server error' }));
  }
  return reply;
}

function turnsOf(request: FastifyRequest, services: Services, turns: ClientTurn[]): Question {
  const split = splitConversation(turns, services.config.get('COMPAT_MAX_HISTORY'));
  if (!split) throw badRequest('invalid request: the messages need a user message with text');
  return { conversation: conversationOf(request, turns), text: split.text, history: split.history };
}

/** `POST /api/chat` and `POST /api/generate` (a prompt is one user message). */
export async function ollamaChatRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  app.post('/api/chat', async (request, reply) => {
    const body = parseBody(OllamaChatRequestSchema, request.body);
    const chosen = resolveModel(catalogue(services), body.model);
    const model = body.model ?? chosen.id;
    if (body.messages.length === 0) return chatLoaded(model, loadReason(body.keep_alive));
    const question = turnsOf(
      request,
      services,
      body.messages.map((message) => ({ role: message.role, content: message.content })),
    );
    return answer(reply, compatBridge(services), { ...question, engine: chosen.engine }, { model, stream: body.stream, frames: chatFrames });
  });

  app.post('/api/generate', async (request, reply) => {
    const body = parseBody(OllamaGenerateRequestSchema, request.body);
    const chosen = resolveModel(catalogue(services), body.model);
    const model = body.model ?? chosen.id;
    if (body.prompt.trim() === '') return generateLoaded(model, loadReason(body.keep_alive));
    const turns = [...(body.system === undefined ? [] : [{ role: 'system', content: body.system }]), { role: 'user', content: body.prompt }];
    const question = turnsOf(request, services, turns);
    return answer(reply, compatBridge(services), { ...question, engine: chosen.engine }, { model, stream: body.stream, frames: generateFrames });
  });
}
