import { z } from 'zod';
import { BackgroundDeclinedError, ComponentRouteError, defineCortex } from '../../src/components/contract.ts';
import { PendingPrompts } from './pending-prompts.ts';

const AnswerSchema = z.object({
  id: z.string().min(1).max(64),
  // Blank would reach the chain as an answer of nothing, which it reports to the asker as a failure.
  text: z
    .string()
    .max(100_000)
    .refine((text) => text.trim() !== ''),
});

/**
 * An operator answers in place of a language model, on the web UI's Operator page (`#/operator`): prompts
 * wait in `GET /api/cortex/manual/pending` until `POST /api/cortex/manual/answer {id, text}` (or
 * CORTEX_TIMEOUT_S passes, or the asker goes away).
 */
export default defineCortex({
  engineKind: 'chat',
  description: "An operator answers each prompt on the web UI's Operator page.",
  create: () => {
    const pending = new PendingPrompts();
    return {
      async *generate(request) {
        // The operator answers people; the host's own work (memory extraction) is not theirs to type.
        if (request.background) throw new BackgroundDeclinedError('the manual engine answers only messages from people');
        yield await pending.ask(request);
      },
      stop: () => pending.rejectAll(new Error('the manual engine stopped')),
      routes: [
        {
          method: 'GET',
          path: '/api/cortex/manual/pending',
          summary: 'Prompts waiting for the operator, oldest first: who asked, where, the message, the whole prompt',
          handle: () => ({ body: { pending: pending.list() } }),
        },
        {
          method: 'POST',
          path: '/api/cortex/manual/answer',
          summary: 'Answer a waiting prompt: {id, text}',
          handle: ({ body }) => {
            const parsed = AnswerSchema.safeParse(body);
            if (!parsed.success) throw new ComponentRouteError(400, 'invalid_request', 'Send {id, text}: the prompt id and a non-empty answer');
            if (!pending.answer(parsed.data.id, parsed.data.text)) throw new ComponentRouteError(404, 'not_found', 'No prompt is waiting with that id');
            return { body: { answered: true, id: parsed.data.id } };
          },
        },
      ],
    };
  },
});
