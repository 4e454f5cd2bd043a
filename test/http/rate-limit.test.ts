import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

const REMOTE = '203.0.113.7';

describe('rate limit (APP_RATE_LIMIT_PER_MINUTE)', () => {
  const subject = useTestApp({ environment: { APP_API_KEY: 'k3y', APP_RATE_LIMIT_PER_MINUTE: '2' } });
  const remote = (url: string, headers: Record<string, string> = {}) => subject.app.inject({ method: 'GET', url, remoteAddress: REMOTE, headers });

  it('counts refused credentials too, so guessing the API key is throttled like any request', async () => {
    const statuses = [];
    for (let guess = 0; guess < 3; guess += 1) statuses.push((await remote('/api/about', { 'x-api-key': `guess-${guess}` })).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await remote('/api/about', { 'x-api-key': 'k3y' })).json().error.code).toBe('rate_limited');
  });

  it('counts URLs that match no route', async () => {
    const statuses = [];
    for (let probe = 0; probe < 3; probe += 1) statuses.push((await remote(`/probe-${probe}`)).statusCode);
    expect(statuses).toEqual([404, 404, 429]);
  });
});
