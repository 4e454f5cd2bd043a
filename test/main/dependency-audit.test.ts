import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADVISORY = {
  id: 1_099_999,
  url: 'https://github.com/advisories/GHSA-abcd-efgh-ijkl',
  title: 'Test advisory in ws',
  severity: 'high',
  vulnerable_versions: '>=0.0.0',
  cwe: ['CWE-400'],
  cvss: { score: 7.5, vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' },
};

/**
 * The parts of the npm registry `npm audit` uses, as npm documents them: the bulk advisory endpoint
 * (`POST /-/npm/v1/security/advisories/bulk`, a gzipped `{name: [versions]}`, answered with
 * `{name: [advisory]}`), and packuments (`GET /<name>`) for its fix calculation, made from node_modules.
 */
async function startRegistry() {
  const state = { refuse: false, asked: {} as Record<string, string[]> };
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const url = decodeURIComponent(request.url ?? '/');
      if (request.method === 'POST' && url.startsWith('/-/npm/v1/security/advisories/bulk')) {
        if (state.refuse) return void response.writeHead(405, { allow: 'GET,HEAD' }).end();
        const raw = Buffer.concat(parts);
        state.asked = JSON.parse((request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as Record<string, string[]>;
        const answer = state.asked.ws ? { ws: [ADVISORY] } : {};
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }
      const name = url.slice(1);
      try {
        const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string; dependencies?: object };
        const version = { name, version: manifest.version, dependencies: manifest.dependencies ?? {}, dist: { tarball: `http://127.0.0.1/${name}.tgz` } };
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: version } }));
      } catch {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the dependency audit of npm test (scripts/audit.mjs)', () => {
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  let folder: string;

  beforeAll(async () => {
    registry = await startRegistry();
    folder = await mkdtemp(join(tmpdir(), 'anima-audit-'));
  });
  afterAll(async () => {
    await registry.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** Runs the audit against the local registry with this allow-list; its exit code and what it printed. */
  async function audit(advisories: unknown[], environment: Record<string, string> = {}) {
    const list = join(folder, `allow-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(list, JSON.stringify({ reviewed: '2026-11-24', advisories }));
    const child = spawn('node', ['scripts/audit.mjs', '--allow-list', list], {
      cwd: ROOT,
      env: { ...process.env, ANIMA_REQUIRE_AUDIT: '0', npm_config_registry: registry.url, npm_config_cache: join(folder, 'cache'), ...environment },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, output };
  }

  it('fails on an advisory of a production dependency that the list does not accept, naming it', async () => {
    const { code, output } = await audit([]);
    expect(output).toContain('NEW ADVISORY GHSA-abcd-efgh-ijkl (high) in ws: Test advisory in ws');
    expect(code).toBe(1);
    // Production dependencies only: vitest, a development dependency, is not asked about.
    expect(Object.keys(registry.state.asked)).toContain('ws');
    expect(Object.keys(registry.state.asked)).not.toContain('vitest');
  }, 120_000);

  it('passes when the list accepts it until a later review date, and fails again once that date has passed', async () => {
    const accepted = { id: 'GHSA-abcd-efgh-ijkl', package: 'ws', reason: 'The test says so.' };
    const current = await audit([{ ...accepted, review_by: '2999-01-01' }]);
    expect([current.code, current.output]).toEqual([0, expect.stringContaining('no advisory beyond the 1 accepted')]);
    const due = await audit([{ ...accepted, review_by: '2020-01-01' }]);
    expect([due.code, due.output]).toEqual([1, expect.stringContaining('REVIEW DUE GHSA-abcd-efgh-ijkl')]);
  }, 120_000);

  it('refuses an allow-list entry without a reason', async () => {
    const { code, output } = await audit([{ id: 'GHSA-abcd-efgh-ijkl', review_by: '2999-01-01' }]);
    expect(code).not.toBe(0);
    expect(output).toContain('every advisory needs "id", "reason" and "review_by"');
  });

  it('says so when the advisory endpoint cannot be asked, and fails only when required', async () => {
    registry.state.refuse = true;
    try {
      const local = await audit([]);
      expect([local.code, local.output]).toEqual([0, expect.stringContaining('NOTICE: npm audit could not ask')]);
      const ci = await audit([], { ANIMA_REQUIRE_AUDIT: '1' });
      expect([ci.code, ci.output]).toEqual([1, expect.stringContaining('FAILED: npm audit could not ask')]);
    } finally {
      registry.state.refuse = false;
    }
  }, 120_000);
});
