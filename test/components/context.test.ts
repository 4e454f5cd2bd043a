import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin, type HostServices, type ServiceName } from '../../src/components/contract.ts';
import { type ComponentEntry, ComponentRegistry } from '../../src/components/registry.ts';
import { componentView } from '../../src/components/status.ts';
import { VoiceSlot } from '../../src/chain/speech.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger } from '../../src/logging.ts';

/** Services that say which one was used; the registry only hands them over. */
function hostServices(used: string[]): HostServices {
  const mark = (name: string) => () => {
    used.push(name);
    return Promise.resolve(1);
  };
  return {
    chain: { submit: () => Promise.reject(new Error('not in this test')) },
    outbox: { enqueue: mark('outbox') },
    diary: { write: mark('diary') },
    body: {
      transitionTo: () => used.push('body'),
      stopAnimation: () => undefined,
      setExpression: () => undefined,
      clearExpression: () => undefined,
      setFaceValues: () => undefined,
      persona: () => Promise.reject(new Error('not in this test')),
      provideEmotions: () => () => undefined,
    },
    uploads: { promote: () => Promise.reject(new Error('not in this test')) },
    webChat: { show: () => true },
    compat: { cancelAll: () => Promise.resolve() },
    voice: new VoiceSlot(),
    metrics: { observeStage: () => undefined },
    memory: {
      personFor: () => Promise.reject(new Error('not in this test')),
      candidates: () => Promise.resolve([]),
      remember: () => Promise.reject(new Error('not in this test')),
      list: () => Promise.resolve([]),
      getMany: () => Promise.resolve([]),
      markRecalled: () => Promise.resolve(),
      forgetPerson: () => Promise.resolve(0),
      vectors: () => Promise.resolve(new Map()),
      setEmbedding: () => Promise.resolve(),
    },
    completion: { complete: () => Promise.reject(new Error('not in this test')) },
    clock: { now: () => 0, setTimeout: () => undefined, clearTimeout: () => undefined },
    activity: { record: mark('activity'), recent: () => Promise.resolve([]), find: () => Promise.resolve(undefined) },
    inbox: { recent: () => Promise.resolve([]) },
    stream: { enabled: false, offer: () => 'queued' },
  };
}

describe('a component context', () => {
  let registry: ComponentRegistry | undefined;
  const config = ConfigStore.fromSources({});
  const { logger } = createLogger({ level: 'silent', pretty: false });
  const used: string[] = [];

  const start = async (...definitions: Parameters<ComponentRegistry['loadAll']>[0]) => {
    registry = new ComponentRegistry({ config, logger, paths: { cwd: '/tmp', backups: '/tmp/backups' }, services: () => hostServices(used) });
    await registry.loadAll(definitions, []);
    return registry;
  };
  afterEach(async () => {
    await registry?.stopAll();
    used.length = 0;
  });

  it('holds exactly the services the component names in `needs`', async () => {
    let seen: string[] = [];
    const plugin = definePlugin({
      name: 'writer',
      needs: ['diary', 'body'],
      create: ({ services }) => {
        seen = Object.keys(services);
        void services.diary.write({ text: 'x', interfacePath: null, tags: [] });
        return {};
      },
    });
    const components = await start(plugin);
    expect(components.find('writer')?.status).toBe('loaded');
    expect(seen).toEqual(['diary', 'body']);
    expect(used).toEqual(['diary']);
  });

  it('gives no service to a component that names none', async () => {
    let seen: string[] = ['unset'];
    await start(
      definePlugin({
        name: 'quiet',
        create: ({ services }) => {
          seen = Object.keys(services);
          return {};
        },
      }),
    );
    expect(seen).toEqual([]);
  });

  it('fails a component that needs a service the host does not have, and boots the others', async () => {
    const components = await start(
      definePlugin({ name: 'telepath', needs: ['telepathy' as ServiceName], create: () => ({}) }),
      definePlugin({ name: 'plain', create: () => ({}) }),
    );
    expect(components.find('telepath')).toMatchObject({ status: 'FAILED', reason: 'Failed to load: needs telepathy, which the host does not provide' });
    expect(components.find('plain')?.status).toBe('loaded');
  });

  it('releases its configuration listeners and runs its onStop work when it stops, so a reload leaks nothing', async () => {
    const changes: unknown[] = [];
    const events: string[] = [];
    const before = config.listenerCount('change');
    const components = await start(
      definePlugin({
        name: 'follower',
        create: (context) => {
          context.config.onChange(['PERSONA_TIMEZONE'], (change) => changes.push(change.value));
          context.onStop(() => void events.push('released'));
          return { stop: () => void events.push('stopped') };
        },
      }),
    );
    expect(config.listenerCount('change')).toBeGreaterThan(before);
    await config.set('PERSONA_TIMEZONE', 'Europe/Rome');
    await config.set('LOGGING_LEVEL', 'debug');
    expect(changes).toEqual(['Europe/Rome']);

    await components.stopAll();
    registry = undefined;
    expect(events).toEqual(['stopped', 'released']);
    expect(config.listenerCount('change')).toBe(before);
    await config.set('PERSONA_TIMEZONE', 'Asia/Tokyo');
    expect(changes).toEqual(['Europe/Rome']);
  });

  it('releases what a component registered when its start fails', async () => {
    const before = config.listenerCount('change');
    const components = await start(
      definePlugin({
        name: 'unlucky',
        create: (context) => {
          context.config.onChange(['PERSONA_TIMEZONE'], () => undefined);
          return { start: () => Promise.reject(new Error('no network')) };
        },
      }),
    );
    expect(components.find('unlucky')).toMatchObject({ status: 'FAILED', reason: 'Failed to start: no network' });
    // What is left is the registry's own listener (it loads gated components when their variables come).
    expect(config.listenerCount('change')).toBe(before + 1);
  });

  it('shows the latest connection report of a component that holds a connection, and none once it stopped', async () => {
    let report: ((state: 'connecting' | 'connected' | 'disconnected', detail?: string) => void) | undefined;
    const components = await start(
      definePlugin({
        name: 'linked',
        create: (context) => {
          report = (state, detail) => context.reportConnection(detail === undefined ? { state } : { state, detail });
          report('connecting');
          return {};
        },
      }),
    );
    const view = () => componentView(components.find('linked') as ComponentEntry).connection;
    expect(view()).toMatchObject({ state: 'connecting', detail: null });
    report?.('connected', 'as @anima_bot');
    expect(view()).toEqual({ state: 'connected', detail: 'as @anima_bot', since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    await components.stopAll();
    registry = undefined;
    expect(view()).toBeNull();
    report?.('disconnected', 'socket closed');
    expect(view()).toBeNull();
  });
});
