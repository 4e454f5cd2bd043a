import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findSkinModel, listSkins, readDescriptorFile, readEntries, skinUrl } from '../../body/skin-files.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { assertSegments } from '../body-requests.ts';

const DescriptorParams = z.object({
  skin: z.string().min(1).max(255),
  animation_type: z.string().min(1).max(255),
  animation_file: z.string().min(1).max(260),
});

/** Skins on disk and their descriptors, as the web UI and body API clients list them. */
export const skinRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { body, paths } = services;

  const describeSkins = async () => {
    const skins = await listSkins(paths.skins);
    const active = body.currentSkin();
    return {
      current_skin: active,
      skins: await Promise.all(
        skins.map(async (name) => {
          const model = await findSkinModel(paths.skins, name);
          const hasPersona = (await readEntries(join(paths.skins, name))).some((entry) => entry.isFile() && entry.name === 'persona.json');
          return {
            name,
            active: name === active,
            model_url: model ? (skinUrl(paths.skins, join(paths.skins, name, model)) ?? null) : null,
            persona_url: hasPersona ? (skinUrl(paths.skins, join(paths.skins, name, 'persona.json')) ?? null) : null,
          };
        }),
      ),
    };
  };

  app.get('/api/skins', { schema: { summary: 'Available skins' } }, describeSkins);
  app.get('/api/body/skins', { schema: { summary: 'Available skins (body API)' } }, describeSkins);

  app.get('/api/skins/current_skin', { schema: { summary: 'Folder of the active skin, or null while a custom model is shown' } }, async () => ({
    skin: body.currentSkin(),
  }));

  app.get(
    '/api/skins/:skin/animations/:animation_type/:animation_file',
    { schema: { summary: 'The descriptor of one animation file (`<file>.fbx.json`)', params: DescriptorParams } },
    async (request) => {
      const { skin, animation_type: type, animation_file: requested } = request.params;
      assertSegments(skin, type, requested);
      if (!requested.endsWith('.json')) throw notFound('Descriptors are named <file>.json');
      // `Idle.fbx.json` is the descriptor's own name; `Idle.json` is accepted as a short form.
      const stem = requested.slice(0, -'.json'.length);
      const candidates = stem.includes('.') ? [stem] : [`${stem}.fbx`, `${stem}.vrma`];
      for (const file of candidates) {
        const descriptor = await readDescriptorFile(join(paths.skins, skin, 'animations', type, `${file}.json`), request.log);
        if (descriptor) return descriptor;
      }
      throw notFound(`No valid descriptor for ${skin}/${type}/${stem}`);
    },
  );
};
