import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { areDevComponentsEnabled, enableDevComponents } from '../../src/components/dev-flag.ts';
import { record } from '../fixtures/components/record.ts';
import { fixtureRoots, shippedRoots } from '../helpers/component-roots.ts';
import { useTestApp } from '../helpers/services.ts';

describe('components endpoints', () => {
  const subject = useTestApp({ startInTest: true });
  const open = (roots = fixtureRoots, environment: Record<string, string> = {}) => subject.start({ componentRoots: roots, environment });

  beforeEach(() => record.reset());
  afterEach(() => enableDevComponents(false));

  it('GET /api/components lists interfaces, plugins and engines with status, reason, actions and requirements', async () => {
    await open(fixtureRoots, { CORTEX_ENGINE: 'scripted' });
    const response = await subject.app.inject({ method: 'GET', url: '/api/components' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['dev_components_enabled', 'interfaces', 'llm', 'plugins', 'summary']);
    expect(body.dev_components_enabled).toBe(false);
    const gated = body.interfaces.find((item: { name: string }) => item.name === 'gated-or');
    expect(gated).toMatchObject({
      kind: 'interface',
      status: 'FAILED',
      reason: 'Missing required configuration: MATRIX_USER_ID, MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN',
      dev: false,
      interface_id: 'gated_or',
      required_config: ['MATRIX_USER_ID', ['MATRIX_PASSWORD', 'MATRIX_ACCESS_TOKEN'], 'MATRIX_HOMESERVER'],
    });
    const echo = body.interfaces.find((item: { name: string }) => item.name === 'echo');
    expect(echo.status).toBe('loaded');
    expect(echo.actions[0]).toMatchObject({ type: 'message_echo', brief: 'Send a message on echo.', schema: { type: 'object' } });
    expect(body.interfaces.find((item: { name: string }) => item.name === 'integration')).toMatchObject({ status: 'loaded', builtin: true });
    expect(body.plugins.find((item: { name: string }) => item.name === 'broken-start')).toMatchObject({
      status: 'FAILED',
      reason: 'Failed to start: cannot reach the moon',
    });
    expect(body.llm).toMatchObject({ active: 'scripted', configured: 'scripted', notice: null });
    expect(body.llm.engines[0]).toMatchObject({ name: 'scripted', engine_kind: 'chat', active: true });
    expect(body.summary.plugins).toEqual({ total: 4, loaded: 1, failed: 3, stopped: 0 });
  });

  it('reports the no-language-model notice when CORTEX_ENGINE is empty', async () => {
    await open();
    const body = (await subject.app.inject({ method: 'GET', url: '/api/components' })).json();
    expect(body.llm.active).toBeNull();
    expect(body.llm.notice).toContain('No language model is configured');
  });

  it('POST /api/components/dev/toggle keeps the flag in memory for the next restart', async () => {
    await open();
    const response = await subject.app.inject({ method: 'POST', url: '/api/components/dev/toggle', payload: { enabled: true } });
    expect(response.json()).toMatchObject({ status: 'ok', enabled: true, message: expect.stringContaining('restart is required') });
    expect(areDevComponentsEnabled()).toBe(true);
    expect(subject.harness.services.components.find('devface')).toBeUndefined();
    expect((await subject.app.inject({ method: 'GET', url: '/api/components' })).json().dev_components_enabled).toBe(true);
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/dev/toggle', payload: {} })).statusCode).toBe(400);
  });

  it('POST /api/components/cortex switches the engine, 404 unknown_engine for an unknown one', async () => {
    await open(shippedRoots);
    const switched = await subject.app.inject({ method: 'POST', url: '/api/components/cortex', payload: { name: 'manual' } });
    expect(switched.json()).toEqual({ status: 'ok', active: 'manual' });
    expect(subject.harness.services.cortex.name).toBe('manual');
    const unknown = await subject.app.inject({ method: 'POST', url: '/api/components/cortex', payload: { name: 'skynet' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('unknown_engine');
  });

  it('POST /api/components/cortex/login answers clearly for engines without a login flow', async () => {
    await open(shippedRoots);
    const response = await subject.app.inject({ method: 'POST', url: '/api/components/cortex/login', payload: { name: 'openai' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'not_supported', name: 'openai', message: expect.stringContaining('no login flow') });
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/cortex/login', payload: { name: 'nope' } })).statusCode).toBe(404);
  });

  it('POST /api/components/run runs a runnable component, 409 for one with nothing to run', async () => {
    await open();
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/run', payload: { name: 'recorder' } })).json()).toEqual({
      status: 'ok',
      name: 'recorder',
      result: { ran: true },
    });
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/run', payload: { name: 'echo' } })).statusCode).toBe(409);
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/run', payload: { name: 'ghost' } })).statusCode).toBe(404);
  });

  it('loads a gated interface when POST /api/config sets its variables, without a restart', async () => {
    await open();
    for (const [key, value] of [
      ['REDDIT_CLIENT_ID', 'id'],
      ['REDDIT_USERNAME', 'anima'],
    ]) {
      expect((await subject.app.inject({ method: 'POST', url: '/api/config', payload: { key, value } })).statusCode).toBe(200);
    }
    await new Promise((resolve) => setImmediate(resolve));
    const body = (await subject.app.inject({ method: 'GET', url: '/api/components' })).json();
    expect(body.interfaces.find((item: { name: string }) => item.name === 'gated-and')).toMatchObject({ status: 'loaded', reason: null });
  });
});
