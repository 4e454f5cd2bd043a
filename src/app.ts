import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { installErrorHandlers } from './errors.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { bodyStateShortcut } from './http/body-state-shortcut.ts';
import { createFastify } from './http/create-fastify.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { guardRoutes, isApiRoute, isReadRequest } from './http/route-trust.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { animationRoutes } from './http/routes/animation.ts';
import { audioRoutes } from './http/routes/audio.ts';
import { bodyRoutes } from './http/routes/body.ts';
import { chatArchiveRoutes } from './http/routes/chat-archives.ts';
import { chatSessionRoutes } from './http/routes/chat-session.ts';
import { capabilityRoutes } from './http/routes/capabilities.ts';
import { memoryRoutes } from './http/routes/memory.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { componentProvidedRoutes } from './http/routes/component-routes.ts';
import { componentRoutes } from './http/routes/components.ts';
import { configRoutes } from './http/routes/config.ts';
import { diaryRoutes } from './http/routes/diary.ts';
import { historyRoutes } from './http/routes/history.ts';
import { integrationRoutes } from './http/routes/integrations.ts';
import { sessionRoutes } from './http/routes/session.ts';
import { skinRoutes } from './http/routes/skins.ts';
import { staticSkinRoutes } from './http/routes/static-skins.ts';
import { streamRoutes } from './http/routes/stream.ts';
import { systemRoutes } from './http/routes/system.ts';
import { uploadRoutes } from './http/routes/uploads.ts';
import { vrmRoutes } from './http/routes/vrm.ts';
import { webuiRoutes } from './http/routes/webui.ts';
import { audioStreamRoutes } from './realtime/audio-stream.ts';
import { bodySocketRoutes } from './realtime/body-sockets.ts';
import { logStreamRoutes } from './realtime/log-stream.ts';
import type { Services } from './services.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `hello`: a socket route that authenticates with the hello handshake instead of headers. */
    trust?: 'hello';
  }
}

export type App = FastifyInstance;

export interface BuildOptions {
  https?: { cert: Buffer; key: Buffer };
}

/** The web app of port 8001 (and of the HTTPS port). Never listens; main and tests decide that. */
export async function buildApp(services: Services, options: BuildOptions = {}): Promise<App> {
  const { config, trust } = services;
  const https = Boolean(options.https);
  const app = createFastify(services, https ? 'https' : 'web', { ...options, shortcut: bodyStateShortcut(services, https) });
  installErrorHandlers(app);

  addSecurityHeaders(app, https);
  // Only JSON and, on the upload routes, multipart bodies: a plain-text post is what any site's form can send.
  app.removeContentTypeParser('text/plain');
  await registerRateLimit(app, config);
  await app.register(websocket, {
    options: { maxPayload: 1_048_576 },
    // 1001 "going away" tells clients the server is stopping, so they reconnect rather than give up.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
      this.websocketServer.close();
      done();
    },
  });
  await registerApiDocs(app, services);

  guardRoutes(app, {
    policy: trust,
    listener: services.listeners.web,
    gate: services.gate,
    // The page, its bundle and the skin, animation, model and speech files; never an /api route.
    isPublic: (request) => isReadRequest(request) && !isApiRoute(request.routeOptions.url ?? '/api'),
  });

  await app.register(sessionRoutes, { services });
  await app.register(systemRoutes, { services });
  await app.register(chatArchiveRoutes, { services });
  await app.register(chatSessionRoutes, { services });
  await app.register(diaryRoutes, { services });
  await app.register(memoryRoutes, { services });
  await app.register(streamRoutes, { services });
  await app.register(historyRoutes, { services });
  await app.register(animationRoutes, { services });
  await app.register(bodyRoutes, { services });
  await app.register(skinRoutes, { services });
  await app.register(staticSkinRoutes, { services });
  // Only the routes that take files pay for the multipart hooks, which run on every request in scope.
  await app.register(async (withFiles) => {
    await withFiles.register(multipart, { limits: { fileSize: config.get('APP_UPLOAD_MAX_BYTES'), files: 1, fields: 20 } });
    await withFiles.register(configRoutes, { services });
    await withFiles.register(uploadRoutes, { services });
    await withFiles.register(vrmRoutes, { services });
  });
  await app.register(bodySocketRoutes, { services });
  await app.register(audioRoutes, { services });
  await app.register(audioStreamRoutes, { services });
  await app.register(componentRoutes, { services });
  await app.register(capabilityRoutes, { services });
  await app.register(metricsRoutes, { services });
  await app.register(integrationRoutes, { services });
  await app.register(componentProvidedRoutes, { services });
  if (config.get('WEB_DEBUG')) await app.register(logStreamRoutes, { services });
  await app.register(webuiRoutes);
  return app;
}
