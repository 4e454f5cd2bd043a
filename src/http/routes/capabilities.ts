import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.ts';

/** GET /api/capabilities: what works now, for the chat's welcome (and any client that wants to say so). */
export const CapabilitiesSchema = z.object({
  /** The Cortex selection: the engine answering (null: every message gets the notice), the saved choice, why not. */
  cortex: z.object({ active: z.string().nullable(), configured: z.string(), notice: z.string().nullable() }),
  /** The Vox engine speaking the replies; null while ACTIVE_VOX_ENGINE is disabled. */
  voice: z.object({ engine: z.string().nullable() }),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/**
 * A small read of its own because the page asks it at every chat start: `/api/components` builds every
 * action's JSON schema, and "voice off" is the audio registry's rule (blank or `disabled`), not the page's.
 */
export const capabilityRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/api/capabilities',
    { schema: { summary: 'What works now: the language model that answers and the voice that speaks', response: { 200: CapabilitiesSchema } } },
    async (): Promise<Capabilities> => {
      const { active, configured, notice } = services.cortex.state();
      return { cortex: { active, configured, notice }, voice: { engine: services.audio.engines.vox.activeName() ?? null } };
    },
  );
};
