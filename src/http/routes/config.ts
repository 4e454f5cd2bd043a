import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { valueToSave, type SentValue } from '../../config/api-value.ts';
import { isSecretKey } from '../../config/define.ts';
import { openConfigFile, shownFolder, storeConfigFile, UnexpectedFileContentError } from '../../config/config-files.ts';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../config/json-depth.ts';
import { findVariable } from '../../config/schema.ts';
import { InvalidValueError, UnknownVariableError } from '../../config/store.ts';
import { viewConfig, viewEntry } from '../../config/view.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { FileTooLargeError } from '../../system/upload-files.ts';

const KeyParams = z.object({ key: z.string().min(1).max(128) });

/** Bounded in depth here, before anything recursive (JSON.stringify) walks a hostile value. */
const JsonValue = z
  .union([z.string(), z.number(), z.boolean(), z.null(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .refine((value) => withinJsonDepth(value), `nested deeper than ${MAX_JSON_DEPTH} levels`);

const SetEntrySchema = z.object({
  key: z.string().min(1).max(128),
  /** JSON-valued variables may be sent as objects, lists as arrays of strings; `null` removes the saved entry. */
  value: JsonValue,
});

function fileVariable(key: string) {
  const found = findVariable(key);
  if (!found) throw notFound(`Unknown configuration variable: ${key}`);
  if (found.definition.type !== 'file') throw badRequest(`${found.key} is not a file variable`);
  return found.key;
}

export const configRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { config } = services;

  const save = async (key: string, value: SentValue) => {
    try {
      const { key: canonical, raw } = await valueToSave(config, services.paths, key, value);
      await config.set(canonical, raw);
      await services.activity.add('config', `${canonical} ${raw === null ? 'reset' : 'changed'}`, { key: canonical });
      return canonical;
    } catch (error) {
      if (error instanceof UnknownVariableError) throw notFound(error.message);
      if (error instanceof InvalidValueError) throw badRequest(error.message, typeof error.issues === 'string' ? undefined : error.issues);
      throw error;
    }
  };

  app.get('/api/config', { schema: { summary: 'Every configuration variable with its value, default and source; secrets masked' } }, async () => ({
    entries: viewConfig(config),
  }));

  app.get('/api/config/:key', { schema: { summary: 'One configuration variable', params: KeyParams } }, async (request) => {
    const entry = viewEntry(config, request.params.key);
    if (!entry) throw notFound(`Unknown configuration variable: ${request.params.key}`);
    return entry;
  });

  app.post('/api/config', { schema: { summary: 'Save one configuration entry (persisted); null resets it', body: SetEntrySchema } }, async (request) => {
    const canonical = await save(request.body.key, request.body.value);
    return { entry: viewEntry(config, canonical) };
  });

  app.post(
    '/api/config/:key/upload',
    { schema: { summary: 'Upload the file of a file variable (multipart field "file")', params: KeyParams } },
    async (request, reply) => {
      const key = fileVariable(request.params.key);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', 'Expected multipart/form-data with a "file" field');
      const upload = await request.file({ limits: { fileSize: config.get('APP_UPLOAD_MAX_BYTES') } });
      if (!upload) throw badRequest('Missing the "file" field');
      try {
        const stored = await storeConfigFile(upload, key, services.paths);
        await save(key, stored.path);
        return reply.status(201).send({ key, path: stored.path, size: stored.size });
      } catch (error) {
        if (error instanceof FileTooLargeError) throw new AppError(413, 'payload_too_large', 'File exceeds APP_UPLOAD_MAX_BYTES');
        if (error instanceof UnexpectedFileContentError) throw new AppError(415, 'unsupported_media_type', error.message);
        throw error;
      }
    },
  );

  app.get('/api/config/:key/file', { schema: { summary: 'Download the file of a file variable', params: KeyParams } }, async (request, reply) => {
    const key = fileVariable(request.params.key);
    if (isSecretKey(key)) throw new AppError(403, 'forbidden', `${key} is a secret and cannot be downloaded`);
    const opened = await openConfigFile(config.rawValue(key) ?? '', services.paths);
    if (!opened) throw notFound(`${key} names no file inside ${shownFolder(services.paths)}`);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', opened.size)
      .header('content-disposition', `attachment; filename="${opened.name}"`)
      .send(opened.stream);
  });
};
