import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { MAX_MESSAGE_LENGTH } from '../components/messages.ts';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../config/json-depth.ts';
import type { Clock } from '../body/clock.ts';
import type { IntegrationsRepository } from '../db/repositories/integrations.ts';
import type { IntegrationRecord, NewIntegrationRecord } from '../db/schema.ts';
import { WriteQueue } from '../history/write-queue.ts';
import type { Logger } from '../logging.ts';
import { INTEGRATION_INTERFACE, integrationPath } from './integration-interface.ts';
import type { MessageChain, SubmitResult } from './message-chain.ts';

/** A JSON object stored as text: too deep a nesting would overflow JSON.stringify's stack (a 500, not the client's 400). */
const StoredObjectSchema = (field: string) =>
  z.record(z.string(), z.unknown()).refine((value) => withinJsonDepth(value), `${field} nests deeper than ${MAX_JSON_DEPTH} levels`);

/** The spec's integration message: `{source, type, payload, metadata}`. */
export const IntegrationMessageSchema = z.object({
  source: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'source is 1 to 64 letters, digits, "_", "." or "-"'),
  type: z.string().min(1).max(64),
  payload: StoredObjectSchema('payload'),
  metadata: StoredObjectSchema('metadata').default({}),
});
export type IntegrationMessage = z.infer<typeof IntegrationMessageSchema>;

const NEEDS_TEXT = 'A chat message needs payload.text (a non-empty string)';

/** Says which field is too long, by how much: a client sees its text was refused for its length, not its shape. */
const tooLong = (field: string) => ({
  error: (issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>) => `${field} is too long: ${String(issue.input).length} characters, at most ${issue.maximum}`,
});

/** A chat's payload and the metadata keys the chain understands. */
export const ChatPayloadSchema = z.object({
  text: z.string(NEEDS_TEXT).trim().min(1, NEEDS_TEXT).max(MAX_MESSAGE_LENGTH, tooLong('payload.text')),
});
const ChatMetadataSchema = z.object({
  user_id: z.string('metadata.user_id must be a string').min(1, 'metadata.user_id must not be empty').max(255, tooLong('metadata.user_id')).optional(),
  username: z.string('metadata.username must be a string').max(255, tooLong('metadata.username')).optional(),
  mentioned: z.boolean('metadata.mentioned must be true or false').optional(),
});

export class InvalidIntegrationMessageError extends Error {}

const firstMessage = (error: z.ZodError) => error.issues[0]?.message ?? NEEDS_TEXT;

export type IngestResult = { id: string; chain: SubmitResult | undefined };

/**
 * Ingress (chat into the chain, other types stored) and the per-source outboxes, kept in the database.
 * An outbox message the database cannot take now (unreachable) is held and written, in order, when it
 * returns, like the chat history's saves: a reply to an integration is not lost to an outage.
 */
export class Integrations {
  private readonly outbox: WriteQueue<NewIntegrationRecord, number>;
  private readonly log: Logger;

  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly chain: Pick<MessageChain, 'submit'>,
    options: { logger: Logger; clock?: Clock },
  ) {
    this.log = options.logger.child({ component: 'integrations' });
    this.outbox = new WriteQueue(
      async (message) => {
        const id = await repository.enqueue(message);
        // Once the row is committed: what an operator (and the kill test) counts as delivered to the outbox.
        this.log.debug({ source: message.source, outbox_id: id }, 'outbox message stored');
        return id;
      },
      (message) => ({ source: message.source, type: message.type }),
      this.log,
      undefined,
      { store: 'integration outbox', ...(options.clock ? { clock: options.clock } : {}) },
    );
  }

  async ingest(message: IntegrationMessage): Promise<IngestResult> {
    const id = randomUUID();
    if (message.type !== 'chat') {
      await this.repository.store(id, message);
      return { id, chain: undefined };
    }
    const payload = ChatPayloadSchema.safeParse(message.payload);
    if (!payload.success) throw new InvalidIntegrationMessageError(firstMessage(payload.error));
    // A sender the metadata names wrongly would be answered as someone else: refused, not ignored.
    const metadata = ChatMetadataSchema.safeParse(message.metadata);
    if (!metadata.success) throw new InvalidIntegrationMessageError(firstMessage(metadata.error));
    const known = metadata.data;
    const chain = await this.chain.submit({
      interfaceId: INTEGRATION_INTERFACE,
      interfacePath: integrationPath(message.source),
      text: payload.data.text,
      senderId: known.user_id ?? message.source,
      senderName: known.username ?? message.source,
      messageId: id,
      mentioned: known.mentioned ?? false,
      metadata: message.metadata,
    });
    return { id, chain };
  }

  /** The stored row's id; 0 while the database is unreachable and the message is held for it. */
  async enqueue(source: string, message: { type: string; payload: Record<string, unknown>; metadata?: Record<string, unknown> }): Promise<number> {
    const outcome = await this.outbox.submit({ source, type: message.type, payload: message.payload, metadata: message.metadata ?? {} });
    return outcome.status === 'written' ? outcome.result : 0;
  }

  /** Outbox messages waiting for the database. */
  get pendingOutbox(): number {
    return this.outbox.size;
  }

  /** Stops retrying held outbox messages (after one last attempt). */
  stop(): Promise<void> {
    return this.outbox.stop();
  }

  /** Everything queued for the source, oldest first; the queue is empty afterwards. */
  takeOutbox(source: string): Promise<IntegrationRecord[]> {
    return this.repository.takeOutbox(source);
  }

  stored(source: string, limit = 100): Promise<IntegrationRecord[]> {
    return this.repository.stored(source, limit);
  }
}
