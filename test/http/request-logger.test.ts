import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

describe('the request logger', () => {
  const lines: Array<{ msg: string; reqId?: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const subject = useTestApp({ logLevel: 'info', logDestination: sink });

  it('makes no logger for a request that logs nothing, and one with the request id for a request that logs', async () => {
    const { app } = subject;
    app.get('/api/noisy', async (request) => {
      request.log.warn({ detail: 1 }, 'something to say');
      request.log.info('and more');
      return { ok: true };
    });
    const child = vi.spyOn(app.log, 'child');
    for (let poll = 0; poll < 3; poll += 1) expect((await app.inject({ method: 'GET', url: '/api/body/state' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();

    expect((await app.inject({ method: 'GET', url: '/api/noisy' })).statusCode).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    const said = lines.filter((line) => line.msg === 'something to say' || line.msg === 'and more');
    expect(said).toHaveLength(2);
    expect(said[0]?.reqId).toMatch(/^req-/);
    expect(said[1]?.reqId).toBe(said[0]?.reqId);
  });
});
