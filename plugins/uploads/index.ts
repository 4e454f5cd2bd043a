import { definePlugin } from '../../src/components/contract.ts';
import { promoteUpload, PromoteRequestSchema } from '../../src/body/upload-promotion.ts';
import { UploadStore } from '../../src/body/upload-store.ts';

/**
 * `promote_upload`: the assistant keeps a temporary animation upload by copying it into a skin, under
 * the same rules as `POST /api/animations/promote` (COMPANION_PROMOTE_ENABLED=1, 409 on a name clash
 * unless overwrite). Uploads live on disk, so this store agrees with the one the HTTP routes use.
 */
export default definePlugin({
  description: 'Lets the assistant promote a temporary animation upload into a skin.',
  create: ({ body, config, logger }) => {
    const uploads = new UploadStore({
      body,
      logger,
      ttlDays: () => config.get('COMPANION_UPLOAD_TTL_DAYS'),
      promoteEnabled: () => config.get('COMPANION_PROMOTE_ENABLED'),
    });
    return {
      actions: {
        promote_upload: {
          schema: PromoteRequestSchema,
          brief: 'Keep a temporary animation upload by copying it into a skin (the active one by default).',
          examples: [{ upload_id: '0123456789abcdef0123456789abcdef' }],
          instructions: 'Only when the user asks to keep an uploaded animation; it works only while COMPANION_PROMOTE_ENABLED is 1.',
        },
      },
      async handleAction(_type, payload) {
        const result = await promoteUpload(uploads, PromoteRequestSchema.parse(payload));
        logger.info({ skin: result.skin, state: result.state, file: result.file }, 'upload promoted');
      },
    };
  },
});
