import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { maskCredentials } from '../../config/credential-mask.ts';
import { backupDatabase } from '../../db/backup.ts';
import { badRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { describeAbout } from '../../system/about.ts';
import { suggestLocations } from '../../system/locations.ts';
import { checkStreamerHealth } from '../../system/streamer.ts';

const RestartSchema = z.object({ confirm: z.boolean().optional() });

export const systemRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { config } = services;

  app.get('/api/about', { schema: { summary: 'Uptime, active sessions, ports, version and system information' } }, async () => describeAbout(services));

  app.post(
    '/api/system/restart',
    { schema: { summary: 'Restart the process in place; requires {confirm: true}', body: RestartSchema } },
    async (request, reply) => {
      if (request.body.confirm !== true) throw badRequest('Restart needs {"confirm": true}');
      await services.activity.add('system', 'restart requested', { ip: request.ip });
      // Restart once the answer has left, so the client learns it was accepted.
      reply.raw.once('finish', () => services.lifecycle.requestRestart());
      return reply.status(202).send({ restarting: true });
    },
  );

  app.post('/api/database/backup', { schema: { summary: 'Write a consistent database backup under backups/db/' } }, async (request, reply) => {
    const file = await backupDatabase(services.database, join(services.paths.backups, 'db'), request.log);
    await services.activity.add('database', 'backup written', { file });
    return reply.status(201).send({ file, path: `db/${file}`, dialect: services.database.dialect });
  });

  app.get('/api/prompt_override', { schema: { summary: 'The prompt override the UI shows, if any' } }, async () => {
    const override = config.get('PROMPT_OVERRIDE');
    return { active: override.trim() !== '', prompt_override: override.trim() === '' ? null : override };
  });

  app.get(
    '/api/locations',
    { schema: { summary: 'Suggest locations for the persona', querystring: z.object({ q: z.string().max(100).optional() }) } },
    async (request) => suggestLocations(config.get('PERSONA_LOCATION'), request.query.q),
  );

  app.get('/api/logchat/info', { schema: { summary: 'Current logchat settings' } }, async () => {
    const interfacePath = config.get('LOGCHAT_INTERFACE_PATH');
    return { enabled: interfacePath !== '', interface_path: interfacePath === '' ? null : interfacePath, level: config.get('LOGCHAT_LEVEL') };
  });

  app.get('/api/logs/info', { schema: { summary: 'Whether WS /logs streams now (WEB_DEBUG at start) and whether WEB_DEBUG is set now' } }, async () => ({
    // The stream is registered when the app is built, so the router knows whether it runs; the variable
    // may have been changed since, which takes effect at the next restart.
    live: app.hasRoute({ method: 'GET', url: '/logs' }),
    web_debug: config.get('WEB_DEBUG'),
  }));

  app.get('/api/streamer', { schema: { summary: 'Configuration of the remote-streaming adapter' } }, async () => {
    const url = config.get('STREAMER_URL');
    // Shown as GET /api/config shows it: a password in the URL stays on the server.
    return { enabled: url !== '', url: url === '' ? null : maskCredentials('string', url) };
  });

  app.get('/api/streamer/health', { schema: { summary: 'Health of the remote-streaming adapter' } }, async () =>
    checkStreamerHealth(config.get('STREAMER_URL'), services.clock),
  );
};
