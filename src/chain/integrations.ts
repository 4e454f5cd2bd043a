import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { IntegrationsRepository } from '../db/repositories/integrations.ts';
import type { IntegrationRecord } from '../db/schema.ts';
import { INTEGRATION_INTERFACE, integrationPath } from './integration-interface.ts';
import type { MessageChain, SubmitResult } from './message-chain.ts';

/** The spec's integration message: `{source, type, payload, metadata}`. */
export const IntegrationMessageSchema = z.object({
  source: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'source is 1 to 64 letters, digits, "_", "." or "-"'),
  type: z.string().min(1).max(64),
  payload: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type IntegrationMessage = z.infer<typeof IntegrationMessageSchema>;

/** A chat's payload and the metadata keys the chain understands. */
export const ChatPayloadSchema = z.object({ text: z.string().trim().min(1).max(100_000) });
const ChatMetadataSchema = z.object({
  user_id: z.string().min(1).max(255).optional(),
  username: z.string().max(255).optional(),
  mentioned: z.boolean().optional(),
});

export class InvalidIntegrationMessageError extends Error {}

export type IngestResult = { id: string; chain: SubmitResult | undefined };

/** Ingress (chat into the chain, other types stored) and the per-source outboxes, kept in the database. */
export class Integrations {
  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly chain: Pick<MessageChain, 'submit'>,
  ) {}

  async ingest(message: IntegrationMessage): Promise<IngestResult> {
    const id = randomUUID();
    if (message.type !== 'chat') {
      await this.repository.store(id, message);
      return { id, chain: undefined };
    }
    const payload = ChatPayloadSchema.safeParse(message.payload);
    if (!payload.success) throw new InvalidIntegrationMessageError('A chat message needs payload.text (a non-empty string)');
    const metadata = ChatMetadataSchema.safeParse(message.metadata);
    const known = metadata.success ? metadata.data : {};
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

  enqueue(source: string, message: { type: string; payload: Record<string, unknown>; metadata?: Record<string, unknown> }): Promise<number> {
    return this.repository.enqueue({ source, type: message.type, payload: message.payload, metadata: message.metadata ?? {} });
  }

  /** Everything queued for the source, oldest first; the queue is empty afterwards. */
  takeOutbox(source: string): Promise<IntegrationRecord[]> {
    return this.repository.takeOutbox(source);
  }

  stored(source: string, limit = 100): Promise<IntegrationRecord[]> {
    return this.repository.stored(source, limit);
  }
}
