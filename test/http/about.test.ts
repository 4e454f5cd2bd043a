import { describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useTestApp } from '../helpers/services.ts';

describe('GET /api/about', () => {
  const clock = new ManualClock();
  const subject = useTestApp({ clock });

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
    expect([body.started_at, body.uptime_s]).toEqual([new Date(clock.now()).toISOString(), 0]);
  });

  it('counts uptime on the server clock', async () => {
    const uptime = async () => (await subject.app.inject({ method: 'GET', url: '/api/about' })).json().uptime_s;
    const before = await uptime();
    clock.advance(90_000);
    expect(await uptime()).toBe(before + 90);
  });
});
