import { describe, expect, it } from 'vitest';
import { NO_ENGINE_NOTICE } from '../../src/chain/cortex-selector.ts';
import { shippedRoots } from '../helpers/component-roots.ts';
import { useTestApp } from '../helpers/services.ts';

describe('GET /api/capabilities', () => {
  const subject = useTestApp({ componentRoots: shippedRoots, startInTest: true });

  it('says that no language model answers, and that the bundled voice speaks, on a fresh start', async () => {
    await subject.start();
    const response = await subject.app.inject({ method: 'GET', url: '/api/capabilities' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ cortex: { active: null, configured: '', notice: NO_ENGINE_NOTICE }, voice: { engine: 'local' } });
  });

  it('names the engine that answers and the voice switched off', async () => {
    await subject.start({ environment: { CORTEX_ENGINE: 'manual', ACTIVE_VOX_ENGINE: 'Disabled' } });
    expect((await subject.app.inject({ method: 'GET', url: '/api/capabilities' })).json()).toEqual({
      cortex: { active: 'manual', configured: 'manual', notice: null },
      voice: { engine: null },
    });
  });

  it('follows a switch of the engine at run time', async () => {
    await subject.start();
    expect((await subject.app.inject({ method: 'POST', url: '/api/components/cortex', payload: { name: 'manual' } })).statusCode).toBe(200);
    expect((await subject.app.inject({ method: 'GET', url: '/api/capabilities' })).json().cortex).toMatchObject({ active: 'manual', notice: null });
  });
});
