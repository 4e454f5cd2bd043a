import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeInventory } from '../../src/http/route-inventory.ts';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { useTestApp } from '../helpers/services.ts';
import { selfSignedTls } from '../helpers/tls-files.ts';
import { multipart } from '../helpers/upload-files.ts';

/**
 * Every path, file name or id a client can send (in a URL segment, the query or a JSON body) stays inside
 * its folder: walked generically over every route, so routes added later are covered too. Sent with the
 * key: trust is no licence to read or delete outside the folders.
 */

const KEY = 'k3y-for-path-parameters';
const CANARY_TEXT = `canary-${randomUUID()}`;
const CANARY = 'canary.txt';
/** A file of this machine that no route serves. */
const SYSTEM_FILE = { path: '/etc/passwd', text: 'root:x:0:0' };

/** The traversal spellings of `target` (a path relative to some folder, or absolute). */
function spellings(target: string): string[] {
  const backslashed = target.replaceAll('/', '\\');
  return [
    encodeURIComponent(target),
    encodeURIComponent(encodeURIComponent(target)),
    encodeURIComponent(backslashed),
    target.replaceAll('.', '%2e').replaceAll('/', '%2f'),
    `${encodeURIComponent(target)}%00.fbx`,
  ];
}

/** `../` one to eight levels up, and the way from each known folder, to the canary and the system file. */
function targets(cwd: string, folders: string[]): string[] {
  const upward = [1, 2, 4, 8].map((depth) => `${'../'.repeat(depth)}${CANARY}`);
  const fromFolders = folders.map((folder) => relative(folder, join(cwd, CANARY)));
  return [...upward, ...fromFolders, join(cwd, CANARY), SYSTEM_FILE.path, `${'../'.repeat(12)}etc/passwd`];
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
}

/** A value of `schema` with `text` in every string; enums keep their first value. */
function sample(schema: JsonSchema | undefined, text: string): unknown {
  if (!schema) return text;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], text);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [sample(schema.items, text)];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, member]) => [name, sample(member, text)]));
  }
  return text;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  body?: JsonSchema;
}

describe('path and file parameters never leave their folders', () => {
  const subject = useTestApp({
    once: true,
    listen: true,
    environment: { SKINS_DIR: FIXTURE_SKINS, APP_TRUST_LOOPBACK: 'false', APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  let payloads: string[] = [];
  let operations: Operation[] = [];

  beforeAll(async () => {
    const { cwd, services } = subject.harness;
    await writeFile(join(cwd, CANARY), CANARY_TEXT);
    const folders = [services.paths.skins, services.paths.backups, join(services.paths.backups, 'config_files', 'APP_WEBUI_TLS_CERT'), join(cwd, 'tmp_tts')];
    payloads = targets(cwd, folders).flatMap(spellings);
    const document = subject.app.swagger() as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>
      >;
    };
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{([^}]+)\}/g, ':$1'),
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        body: operation.requestBody?.content?.['application/json']?.schema,
      })),
    );
    const hidden = routeInventory(subject.app)
      .filter((route) => !route.websocket && !documented.some((operation) => operation.method === route.method && operation.path === route.url))
      .map((route) => ({ method: route.method, path: route.url, query: [] }));
    operations = [...documented, ...hidden];
  });

  const send = (operation: Operation, value: string): Promise<RawResponse> => {
    // Every parameter of the pattern carries the value; a wildcard takes it raw, slashes and all.
    const path = operation.path.replace(/:[^/]+/g, value).replace('*', decodeURIComponent(value.replaceAll('%00', '')));
    const query = operation.query.map((name) => `${name}=${value}`).join('&');
    const withBody = operation.method !== 'GET' && operation.method !== 'HEAD';
    return rawRequest(subject.ports.web, {
      method: operation.method,
      path: query ? `${path}?${query}` : path,
      headers: { 'x-api-key': KEY, ...(withBody ? { 'content-type': 'application/json' } : {}) },
      body: withBody ? JSON.stringify(sample(operation.body, decodeURIComponent(value.replaceAll('%00', '')))) : undefined,
    });
  };

  it('walks every route, documented or hidden, with a parameter, a query or a body', () => {
    const names = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(names).toEqual(expect.arrayContaining(['GET /skins/*', 'GET /tts/:file', 'GET /api/config/:key/file', 'DELETE /api/chat/archives/:archive_id']));
    expect(payloads.length).toBeGreaterThan(40);
  });

  it('serves, deletes or renames nothing outside, and never answers 500', async () => {
    const leaks: string[] = [];
    const errors: string[] = [];
    for (const operation of operations) {
      if (!/[:*]/.test(operation.path) && operation.query.length === 0 && !operation.body) continue;
      for (const value of payloads) {
        const answer = await send(operation, value);
        const shown = `${operation.method} ${operation.path} with ${value} -> ${answer.status}`;
        if (answer.body.includes(CANARY_TEXT) || answer.body.includes(SYSTEM_FILE.text)) leaks.push(shown);
        // A 401 would mean the walk never reached the handler: the key opens every route.
        if (answer.status >= 500 || answer.status === 401) errors.push(`${shown} ${answer.body.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
    expect(await readFile(join(subject.harness.cwd, CANARY), 'utf8')).toBe(CANARY_TEXT);
  }, 600_000);
});

describe('uploaded files are checked by their content, not their name', () => {
  const subject = useTestApp({ once: true });
  const upload = (key: string, filename: string, value: Buffer | string) =>
    subject.app.inject({ method: 'POST', url: `/api/config/${key}/upload`, ...multipart([{ name: 'file', filename, value }], subject.harness.services) });
  const folder = () => join(subject.harness.cwd, 'backups', 'config_files');

  it('refuses a certificate or key file that does not parse as one (415), keeping the file and the value it had', async () => {
    const { certificate, privateKey } = selfSignedTls();
    expect((await upload('APP_WEBUI_TLS_CERT', 'cert.pem', certificate)).statusCode).toBe(201);
    const before = subject.harness.services.config.get('APP_WEBUI_TLS_CERT');
    for (const [key, value] of [
      ['APP_WEBUI_TLS_CERT', 'not a certificate'],
      ['APP_WEBUI_TLS_CERT', privateKey],
      ['APP_WEBUI_TLS_CERT', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'],
      ['APP_WEBUI_TLS_KEY', certificate],
      ['APP_WEBUI_TLS_KEY', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])],
    ] as const) {
      const refused = await upload(key, 'cert.pem', value);
      expect(refused.statusCode, `${key} ${String(value).slice(0, 30)}`).toBe(415);
      expect(refused.json().error.code).toBe('unsupported_media_type');
    }
    expect(await readFile(join(folder(), 'APP_WEBUI_TLS_CERT', 'cert.pem'), 'utf8')).toBe(certificate);
    expect(subject.harness.services.config.get('APP_WEBUI_TLS_CERT')).toBe(before);
    expect(subject.harness.services.config.get('APP_WEBUI_TLS_KEY')).toBe('');
    expect((await upload('APP_WEBUI_TLS_KEY', 'key.pem', privateKey)).statusCode).toBe(201);
  });
});
