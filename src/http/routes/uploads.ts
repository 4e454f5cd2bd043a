import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseDescriptor, type Descriptor } from '../../body/descriptor.ts';
import { promoteUpload, PromoteRequestSchema } from '../../body/upload-promotion.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { withKnownState } from '../body-requests.ts';
import { discardUpload, receiveUpload, refusalsAsHttp } from '../multipart-upload.ts';

/** The text fields of `POST /api/animations/upload`; `descriptor` may also come as a small JSON file. */
const UploadFieldsSchema = z.object({
  state: z.string().min(1, 'state is required').max(128),
  descriptor: z.string().optional(),
});
const UploadIdParams = z.object({ upload_id: z.string().min(1).max(64) });

function descriptorOf(text: string | undefined): Descriptor | null {
  if (text === undefined || text.trim() === '') return null;
  const reading = parseDescriptor(text);
  if (!reading.ok) throw badRequest(`Invalid descriptor: ${reading.reason}`);
  return reading.descriptor;
}

/** Temporary animation uploads (contract "Uploads"): upload, list, delete, promote into a skin. */
export const uploadRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { body, config } = services;
  const { uploads } = services.avatarFiles;

  app.post(
    '/api/animations/upload',
    { schema: { summary: 'Upload an FBX or VRMA animation for a state (multipart: file, state, optional descriptor)' } },
    async (request, reply) => {
      const received = await receiveUpload(request, {
        fileField: 'file',
        sideFiles: ['descriptor'],
        staging: () => uploads.stagingPath(),
        maxBytes: config.get('APP_UPLOAD_MAX_BYTES'),
        idleTimeoutMs: config.get('APP_UPLOAD_IDLE_TIMEOUT_S') * 1000,
      });
      try {
        if (!received.file) throw badRequest('Missing the "file" field');
        const fields = UploadFieldsSchema.safeParse(Object.fromEntries(received.fields));
        if (!fields.success) throw badRequest('Invalid upload fields', fields.error.issues);
        const state = withKnownState(() => body.states.resolve(fields.data.state));
        const descriptor = descriptorOf(fields.data.descriptor);
        const { staged, filename } = received.file;
        const { meta } = await refusalsAsHttp(() => uploads.create({ staged, originalName: filename, state, descriptor }));
        request.log.info({ upload_id: meta.upload_id, state, file: meta.file }, 'animation uploaded');
        return reply.status(201).send({ upload_id: meta.upload_id, state, file: meta.file, url: meta.url, descriptor, expires_at: meta.expires_at });
      } finally {
        await discardUpload(received);
      }
    },
  );

  app.get('/api/animations/uploads', { schema: { summary: 'Pending temporary uploads' } }, async () => ({ uploads: await uploads.list() }));

  app.delete('/api/animations/uploads/:upload_id', { schema: { summary: 'Remove a temporary upload', params: UploadIdParams } }, async (request, reply) => {
    const removed = await refusalsAsHttp(() => uploads.remove(request.params.upload_id));
    if (!removed) throw notFound(`No upload ${request.params.upload_id}`);
    return reply.status(204).send();
  });

  app.post(
    '/api/animations/promote',
    { schema: { summary: 'Copy an upload into a skin (needs COMPANION_PROMOTE_ENABLED=1)', body: PromoteRequestSchema } },
    async (request) => {
      const result = await refusalsAsHttp(() => promoteUpload(uploads, request.body));
      request.log.info({ upload_id: request.body.upload_id, skin: result.skin, state: result.state, file: result.file }, 'upload promoted');
      return result;
    },
  );
};
