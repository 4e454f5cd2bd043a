import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

describe('GET /api/about', () => {
  const subject = useTestApp();

  it('reports version, uptime, sessions, ports and system information', async () => {
    subject.harness.services.runtime.ports = { http: 8123, https: null, compat: 11999 };
    const response = await subject.app.inject({ method: 'GET', url: '/api/about' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      name: 'Anima',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      active_sessions: 0,
      ports: { http: 8123, https: null, compat: 11999 },
      database: { dialect: 'sqlite' },
      system: { node: process.version, pid: process.pid },
    });
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
  });
});
