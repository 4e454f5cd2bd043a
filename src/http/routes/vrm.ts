import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CUSTOM_VRM_PREFIX } from '../../body/custom-vrm.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { discardUpload, receiveUpload, refusalsAsHttp } from '../multipart-upload.ts';
import { sendInside } from './static-skins.ts';

/**
 * Custom VRM models: `POST /api/vrm` (multipart `file`) stores and shows one; `GET /vrm/<sha256>.vrm`
 * serves it like a skin file (GET and HEAD, no trust check, never outside its folder).
 */
export const vrmRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { customVrm } = services.avatarFiles;

  app.post('/api/vrm', { schema: { summary: 'Upload a VRM model (0.x or 1.0) and show it instead of the skin model' } }, async (request, reply) => {
    const received = await receiveUpload(request, {
      fileField: 'file',
      staging: () => customVrm.stagingPath(),
      maxBytes: services.config.get('APP_UPLOAD_MAX_BYTES'),
      idleTimeoutMs: services.config.get('APP_UPLOAD_IDLE_TIMEOUT_S') * 1000,
    });
    try {
      if (!received.file) throw badRequest('Missing the "file" field');
      const { staged, filename } = received.file;
      const model = await refusalsAsHttp(() => customVrm.adopt(staged, filename));
      request.log.info({ url: model.url, version: model.version }, 'custom VRM model shown');
      return reply
        .status(201)
        .send({ vrm_model: { name: model.name, url: model.url, hash: model.hash }, version: model.version, skin: services.body.currentSkin() });
    } finally {
      await discardUpload(received);
    }
  });

  app.get(`${CUSTOM_VRM_PREFIX}:file`, { schema: { hide: true, params: z.object({ file: z.string().min(1).max(255) }) } }, async (request, reply) => {
    const path = customVrm.pathOf(request.params.file);
    if (!path) throw notFound('No such model');
    return sendInside(reply, customVrm.folder, path);
  });
};
