import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/http/security-headers.ts';
import { useTestApp } from '../helpers/services.ts';

describe('security headers', () => {
  const subject = useTestApp();

  it('protect every API answer, errors included, without document-only policies', async () => {
    for (const url of ['/api/about', '/api/missing']) {
      const response = await subject.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBeUndefined();
    }
  });

  it('give documents and static files the full policy', async () => {
    for (const url of ['/', '/skins/missing.json']) {
      const response = await subject.app.inject({ method: 'GET', url });
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('never upgrade plain-HTTP requests, and send HSTS only over HTTPS', () => {
    const plain = securityHeaders(false);
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(plain['content-security-policy']).toContain('connect-src');
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(securityHeaders(true)['strict-transport-security']).toMatch(/^max-age=\d+/);
  });
});
