import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { UnknownPersonError } from '../../memory/memory-store.ts';
import { MEMORY_KINDS } from '../../memory/types.ts';
import type { Services } from '../../services.ts';
import { limitSchema } from '../history-query.ts';

export const MemorySchema = z.object({
  id: z.number(),
  person_id: z.number().nullable(),
  kind: z.enum(MEMORY_KINDS),
  topic: z.string().nullable(),
  text: z.string(),
  importance: z.number(),
  created_at: z.string(),
  last_recalled_at: z.string().nullable(),
  source_path: z.string().nullable(),
  pinned: z.boolean(),
  superseded_by: z.number().nullable(),
});

export const PersonSchema = z.object({ id: z.number(), display_name: z.string(), created_at: z.string(), identities: z.array(z.string()) });

const PersonId = z.coerce.number().int().positive();
const Text = z.string().trim().min(1).max(4000);
const Importance = z.number().min(0).max(1);
const Topic = z.string().trim().min(1).max(128).nullable();

const ListQuerySchema = z.object({
  person_id: PersonId.optional(),
  q: z.string().max(1000).optional(),
  limit: limitSchema(100, 1000),
  history: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

const CreateSchema = z.object({
  person_id: z.number().int().positive().nullable().optional(),
  kind: z.enum(MEMORY_KINDS),
  text: Text,
  topic: Topic.optional(),
  importance: Importance.optional(),
  pinned: z.boolean().optional(),
  source_path: z.string().min(1).max(512).nullable().optional(),
});

const PatchSchema = z
  .object({
    person_id: z.number().int().positive().nullable(),
    kind: z.enum(MEMORY_KINDS),
    text: Text,
    topic: Topic,
    importance: Importance,
    pinned: z.boolean(),
  })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, { message: 'Send at least one of person_id, kind, text, topic, importance, pinned' });

const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** `<interface_id>:<user_id>`: an interface id without a colon, then any user id. */
const LinkSchema = z.object({
  identity: z
    .string()
    .trim()
    .max(255)
    .regex(/^[^:\s]+:\S.*$/, 'an identity is <interface_id>:<user_id>'),
  person_id: z.number().int().positive(),
});

const RenameSchema = z.object({ display_name: z.string().trim().min(1).max(255) });

/** An unknown person named in a body is the client's mistake. */
async function knownPeople<T>(task: Promise<T>): Promise<T> {
  try {
    return await task;
  } catch (error) {
    if (error instanceof UnknownPersonError) throw notFound(error.message);
    throw error;
  }
}

/**
 * Long-term memory (contract "Memory"): what is remembered, and the people it is remembered of. Core
 * routes over the core store, so the operator can see, correct and delete memories with the plugin off.
 */
export const memoryRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { memory } = services;

  app.get(
    '/api/memory',
    {
      schema: {
        summary: 'Memories: pinned first, then newest; ?q= full-text search (best first), ?person_id=, ?history=true with replaced versions',
        querystring: ListQuerySchema,
        response: { 200: z.object({ memories: z.array(MemorySchema) }) },
      },
    },
    async (request) => {
      const { person_id: personId, q, limit, history } = request.query;
      return {
        memories: await memory.list({
          limit,
          ...(personId === undefined ? {} : { personId }),
          ...(q === undefined ? {} : { q }),
          ...(history ? { includeHistory: true } : {}),
        }),
      };
    },
  );

  app.post(
    '/api/memory',
    { schema: { summary: 'Remember something: {person_id?, kind, text, topic?, importance?, pinned?}', body: CreateSchema, response: { 201: MemorySchema } } },
    async (request, reply) => {
      const { person_id: personId = null, topic, source_path: sourcePath, ...rest } = request.body;
      const created = await knownPeople(memory.create({ ...rest, person_id: personId, topic: topic ?? null, source_path: sourcePath ?? null }));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/memory/export',
    { schema: { summary: 'Everything remembered, history included, with the people, as a JSON download' } },
    async (_request, reply) => {
      const exported = await memory.export();
      return reply.header('content-disposition', `attachment; filename="anima-memory-${exported.exported_at.slice(0, 10)}.json"`).send(exported);
    },
  );

  app.patch(
    '/api/memory/:id',
    {
      schema: {
        summary: 'Correct a memory in place: text, kind, topic, importance, pinned, person_id',
        params: IdParams,
        body: PatchSchema,
        response: { 200: MemorySchema },
      },
    },
    async (request) => {
      const updated = await knownPeople(memory.update(request.params.id, request.body));
      if (!updated) throw notFound(`No memory ${request.params.id}`);
      return updated;
    },
  );

  app.delete('/api/memory/:id', { schema: { summary: 'Forget a memory and the older versions it replaced', params: IdParams } }, async (request, reply) => {
    if (!(await memory.delete(request.params.id))) throw notFound(`No memory ${request.params.id}`);
    return reply.status(204).send();
  });

  app.get(
    '/api/people',
    {
      schema: {
        summary: 'People, each with their platform identities and how many memories they have',
        response: { 200: z.object({ people: z.array(PersonSchema.extend({ memory_count: z.number() })) }) },
      },
    },
    async () => ({ people: await memory.listPeople() }),
  );

  app.post(
    '/api/people/link',
    {
      schema: {
        summary: 'Give an identity (<interface_id>:<user_id>) to a person; a person left without identities is merged into it',
        body: LinkSchema,
        response: { 200: z.object({ person: PersonSchema }) },
      },
    },
    async (request) => ({ person: await knownPeople(memory.link(request.body.identity, request.body.person_id)) }),
  );

  app.patch(
    '/api/people/:id',
    { schema: { summary: 'Rename a person: {display_name}', params: IdParams, body: RenameSchema, response: { 200: z.object({ person: PersonSchema }) } } },
    async (request) => {
      const person = await memory.renamePerson(request.params.id, request.body.display_name);
      if (!person) throw notFound(`No person ${request.params.id}`);
      return { person };
    },
  );

  app.delete(
    '/api/people/:id/memories',
    {
      schema: {
        summary: 'Forget everything remembered about a person (history included)',
        params: IdParams,
        response: { 200: z.object({ deleted: z.number() }) },
      },
    },
    async (request) => {
      if (!(await memory.person(request.params.id))) throw notFound(`No person ${request.params.id}`);
      return { deleted: await memory.forgetPerson(request.params.id) };
    },
  );
};
