import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableDevComponents } from '../../src/components/dev-flag.ts';
import { discoverComponents } from '../../src/components/discovery.ts';
import { closeServices } from '../../src/services.ts';
import { fixtureRoots } from '../helpers/component-roots.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';
import { record } from '../fixtures/components/record.ts';

describe('component discovery', () => {
  afterEach(() => enableDevComponents(false));

  it('finds interfaces, plugins and cortex engines in sorted order, without dev folders by default', async () => {
    const found = await discoverComponents(fixtureRoots, false);
    expect(found.map((item) => `${item.kind}:${item.name}`)).toEqual([
      'interface:echo',
      'interface:gated-and',
      'interface:gated-or',
      'interface:quiet',
      'plugin:broken-load',
      'plugin:broken-start',
      'plugin:not-a-component',
      'plugin:recorder',
      'cortex:scripted',
    ]);
  });

  it('adds interface_dev/, plugins_dev/ and cortex/*/dev with the dev flag', async () => {
    const found = await discoverComponents(fixtureRoots, true);
    expect(found.filter((item) => item.dev).map((item) => `${item.kind}:${item.name}`)).toEqual(['interface:devface', 'plugin:devplug', 'cortex:devengine']);
  });
});

describe('component registry', () => {
  let test: TestServices;

  beforeEach(() => record.reset());
  afterEach(async () => {
    enableDevComponents(false);
    await test?.close();
  });

  it('boots although components throw while loading or starting, and reports them FAILED with the reason', async () => {
    test = await createTestServices({ componentRoots: fixtureRoots });
    const { components } = test.services;
    expect(components.find('broken-load')).toMatchObject({ status: 'FAILED', reason: expect.stringContaining('Failed to load: this module is broken') });
    expect(components.find('broken-start')).toMatchObject({ status: 'FAILED', reason: 'Failed to start: cannot reach the moon' });
    expect(components.find('not-a-component')).toMatchObject({
      status: 'FAILED',
      reason: expect.stringContaining('must default-export a component definition'),
    });
    expect(components.find('echo')?.status).toBe('loaded');
    expect(components.find('recorder')?.status).toBe('loaded');
  });

  it('gates on AND variables and OR groups, registering no actions', async () => {
    test = await createTestServices({ componentRoots: fixtureRoots, environment: { MATRIX_USER_ID: '@anima:matrix.org' } });
    const { components } = test.services;
    expect(components.find('gated-and')).toMatchObject({ status: 'FAILED', reason: 'Missing required configuration: REDDIT_CLIENT_ID, REDDIT_USERNAME' });
    expect(components.find('gated-or')).toMatchObject({ status: 'FAILED', reason: 'Missing required configuration: MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN' });
    expect(components.actions().has('message_gated_and')).toBe(false);
    expect(components.actions().has('message_gated_or')).toBe(false);
    expect(components.actions().has('message_echo')).toBe(true);
  });

  it('loads an OR-gated interface when one member is set, whitespace counting as missing', async () => {
    test = await createTestServices({
      componentRoots: fixtureRoots,
      environment: { MATRIX_USER_ID: 'u', MATRIX_PASSWORD: '  ', MATRIX_ACCESS_TOKEN: 'token' },
    });
    expect(test.services.components.find('gated-or')?.status).toBe('loaded');
  });

  it('hot-loads a gated interface once its variables are set through the configuration', async () => {
    test = await createTestServices({ componentRoots: fixtureRoots });
    const { components } = test.services;
    expect(components.actions().has('message_gated_and')).toBe(false);
    await test.services.config.set('REDDIT_CLIENT_ID', 'id');
    await new Promise((resolve) => setImmediate(resolve));
    expect(components.find('gated-and')).toMatchObject({ status: 'FAILED', reason: 'Missing required configuration: REDDIT_USERNAME' });
    await test.services.config.set('REDDIT_USERNAME', 'anima');
    await new Promise((resolve) => setImmediate(resolve));
    expect(components.find('gated-and')).toMatchObject({ status: 'loaded', reason: null });
    expect(components.actions().has('message_gated_and')).toBe(true);
    expect(record.events).toContain('start gated_and');
  });

  it('stops the started components in reverse order on shutdown', async () => {
    test = await createTestServices({ componentRoots: fixtureRoots });
    expect(record.events).toEqual(['start echo', 'start quiet', 'start recorder']);
    expect(test.services.components.actions().has('message_echo')).toBe(true);
    await closeServices(test.services);
    expect(record.events.slice(3)).toEqual(['stop recorder', 'stop quiet', 'stop echo']);
    expect(test.services.components.actions().has('message_echo')).toBe(false);
    expect(test.services.components.find('echo')?.status).toBe('stopped');
    test = { ...test, close: async () => undefined };
  });

  it('loads development components only when the flag was on at start, with the dev badge', async () => {
    test = await createTestServices({ componentRoots: fixtureRoots });
    expect(test.services.components.find('devface')).toBeUndefined();
    await test.close();
    enableDevComponents(true);
    test = await createTestServices({ componentRoots: fixtureRoots });
    expect(test.services.components.find('devface')).toMatchObject({ status: 'loaded', dev: true });
    expect(test.services.components.find('devengine', 'cortex')).toMatchObject({ status: 'loaded', dev: true });
  });
});
