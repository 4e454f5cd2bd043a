import { z } from 'zod';
import { definePlugin } from '../../src/components/contract.ts';

/** The request of `POST /api/animations/promote`, as the model sees it; the host checks it again. */
const PromoteSchema = z.object({
  upload_id: z.string().regex(/^[0-9a-f]{32}$/),
  skin: z.string().min(1).max(255).optional(),
  overwrite: z.boolean().optional(),
});

/**
 * `promote_upload`: the assistant keeps a temporary animation upload by copying it into a skin, under
 * the same rules as `POST /api/animations/promote` (COMPANION_PROMOTE_ENABLED=1, a name clash refused
 * unless overwrite), through the host's own upload store. Only an operator may ask for it.
 */
export default definePlugin({
  description: 'Lets the assistant promote a temporary animation upload into a skin.',
  needs: ['uploads'],
  create: ({ services, logger }) => ({
    actions: {
      promote_upload: {
        schema: PromoteSchema,
        brief: 'Keep a temporary animation upload by copying it into a skin (the active one by default).',
        examples: [{ upload_id: '0123456789abcdef0123456789abcdef' }],
        instructions: 'Only when the user asks to keep an uploaded animation; it works only while COMPANION_PROMOTE_ENABLED is 1.',
        operatorOnly: true,
      },
    },
    async handleAction(_type, payload) {
      const result = await services.uploads.promote(payload);
      logger.info({ skin: result.skin, state: result.state, file: result.file }, 'upload promoted');
    },
  }),
});
