import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CortexInstance } from '../../components/contract.ts';
import { areDevComponentsEnabled, enableDevComponents } from '../../components/dev-flag.ts';
import { componentsStatus } from '../../components/status.ts';
import { EngineNotLoadedError, UnknownEngineError } from '../../chain/cortex-selector.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';

const NameSchema = z.object({ name: z.string().min(1).max(128) });
const ToggleSchema = z.object({ enabled: z.boolean() });

export const componentRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { components, cortex } = services;

  app.get(
    '/api/components',
    { schema: { summary: 'Interfaces, plugins and Cortex engines with status, reason, dev badge, actions and config requirements' } },
    async () => componentsStatus(components, cortex.state(), areDevComponentsEnabled()),
  );

  app.post(
    '/api/components/dev/toggle',
    { schema: { summary: 'Enable or disable development components (in memory; applies at the next restart)', body: ToggleSchema } },
    async (request) => {
      enableDevComponents(request.body.enabled);
      await services.activity.add('components', `development components ${request.body.enabled ? 'enabled' : 'disabled'} for the next restart`);
      return {
        status: 'ok',
        enabled: areDevComponentsEnabled(),
        message: 'A restart is required to apply changes; the setting is not saved and is off again after the process restarts.',
      };
    },
  );

  app.post('/api/components/cortex', { schema: { summary: 'Switch the active Cortex engine (saved as CORTEX_ENGINE)', body: NameSchema } }, async (request) => {
    try {
      await cortex.select(request.body.name);
    } catch (error) {
      if (error instanceof UnknownEngineError) throw new AppError(404, 'unknown_engine', error.message);
      if (error instanceof EngineNotLoadedError) throw new AppError(409, 'conflict', error.message);
      throw error;
    }
    await services.activity.add('components', `Cortex engine switched to ${request.body.name}`);
    return { status: 'ok', active: request.body.name };
  });

  app.post(
    '/api/components/cortex/login',
    { schema: { summary: 'Start the login flow of a browser-automation Cortex engine', body: NameSchema } },
    async (request) => {
      const { name } = request.body;
      const entry = components.find(name, 'cortex');
      if (!entry) throw new AppError(404, 'unknown_engine', `Unknown Cortex engine: ${name}`);
      const engine = entry.instance as CortexInstance | undefined;
      if (!engine?.login) {
        return { status: 'not_supported', name, message: `${name} has no login flow; it is configured through its settings.` };
      }
      if (entry.status !== 'loaded') throw new AppError(409, 'conflict', `${name} is not loaded${entry.reason ? `: ${entry.reason}` : ''}`);
      return { status: 'ok', name, ...(await engine.login()) };
    },
  );

  app.post('/api/components/run', { schema: { summary: 'Run a runnable component now (the Run now button)', body: NameSchema } }, async (request) => {
    const { name } = request.body;
    const entry = components.find(name);
    if (!entry) throw notFound(`Unknown component: ${name}`);
    if (!entry.instance?.run) throw new AppError(409, 'conflict', `${name} has nothing to run`);
    if (entry.status !== 'loaded') throw new AppError(409, 'conflict', `${name} is not loaded${entry.reason ? `: ${entry.reason}` : ''}`);
    const result = await entry.instance.run();
    await services.activity.add('components', `${name} run now`);
    return { status: 'ok', name, result: result ?? null };
  });
};
