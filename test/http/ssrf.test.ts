import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findVariable } from '../../src/config/schema.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { useTestApp } from '../helpers/services.ts';

/**
 * Every server Anima talks to is the operator's choice, made in the configuration (which only a trusted
 * caller may write: the untrusted-callers suite proves every route refuses the rest). No request names a
 * URL for the server to fetch, and every variable that can name a server is written down in the SSRF
 * table of docs/security.md.
 */

const SECURITY_DOC = fileURLToPath(new URL('../../docs/security.md', import.meta.url));
/** A request field whose name says it holds an address. */
const ADDRESS_NAME = /(url|uri|href|endpoint|webhook|callback|host|server|address)s?$/i;
/** JSON variables whose members name servers (external speech endpoints' `base_url`). */
const JSON_WITH_URLS = ['VOX_ENGINE_SETTINGS', 'AURIS_ENGINE_SETTINGS'];

interface Schema {
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: Schema | boolean;
}

/** `path: field` of every field in `schema` that holds an address, by its format or its name. */
function addressFields(schema: Schema | undefined, at: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const own = schema.format === 'uri' || schema.format === 'url' ? [at] : [];
  const members = Object.entries(schema.properties ?? {}).flatMap(([name, member]) => [
    ...(ADDRESS_NAME.test(name) ? [`${at}.${name}`] : []),
    ...addressFields(member, `${at}.${name}`),
  ]);
  const nested = [schema.items, ...(schema.anyOf ?? []), typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined];
  return [...new Set([...own, ...members, ...nested.flatMap((inner) => addressFields(inner, at))])];
}

/** Variables that can name a server: by name, by a URL default, or JSON settings that hold endpoints. */
function serverVariables(): string[] {
  return ConfigStore.fromSources({ environment: {} })
    .keys()
    .filter((key) => {
      const fallback = String(findVariable(key)?.definition.default ?? '');
      return /(_URL|_URLS|_ENDPOINTS|HOMESERVER)$/.test(key) || /^(https?|wss?|mysql):\/\//.test(fallback) || JSON_WITH_URLS.includes(key);
    });
}

describe('no untrusted caller can make the server fetch a URL of its choosing', () => {
  const subject = useTestApp({ once: true });

  it('takes no URL or address in any request field of any route', async () => {
    await subject.app.ready();
    const document = subject.app.swagger() as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ name: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema: Schema }> } }>
      >;
    };
    const found = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) => {
        const at = `${method.toUpperCase()} ${path}`;
        const parameters = (operation.parameters ?? []).flatMap((parameter) =>
          ADDRESS_NAME.test(parameter.name) ? [`${at} ${parameter.name}`] : addressFields(parameter.schema, `${at} ${parameter.name}`),
        );
        const bodies = Object.values(operation.requestBody?.content ?? {}).flatMap((content) => addressFields(content.schema, `${at} body`));
        return [...parameters, ...bodies];
      }),
    );
    expect(found).toEqual([]);
    // The walk reaches nested members: a field like these would be found.
    expect(addressFields({ properties: { hook: { properties: { callback_url: {} } }, list: { items: { format: 'uri' } } } }, 'body')).toEqual([
      'body.hook.callback_url',
      'body.list',
    ]);
  });

  it('masks a password in the streamer URL, which GET /api/streamer and its health check would otherwise show', async () => {
    await subject.harness.services.config.set('STREAMER_URL', 'http://dj:streamer-pass-31c9@127.0.0.1:9/adapter/');
    const shown = await subject.app.inject({ method: 'GET', url: '/api/streamer' });
    expect(shown.json()).toEqual({ enabled: true, url: 'http://dj:***@127.0.0.1:9/adapter/' });
    const health = await subject.app.inject({ method: 'GET', url: '/api/streamer/health' });
    expect(health.json()).toMatchObject({ status: 'unavailable' });
    expect(health.body).not.toContain('streamer-pass-31c9');
  });

  it('writes down every variable that can name a server, in the SSRF table of docs/security.md', async () => {
    const variables = serverVariables();
    expect(variables).toEqual(expect.arrayContaining(['OPENAI_BASE_URL', 'WEATHER_PROVIDER_URL', 'HTTP_TTS_ENDPOINTS', 'STATION_BASE_URL', 'DATABASE_URL']));
    const table = (await readFile(SECURITY_DOC, 'utf8')).split('## Server-side requests')[1] ?? '';
    expect(variables.filter((key) => !table.includes(`\`${key}\``))).toEqual([]);
  });
});
