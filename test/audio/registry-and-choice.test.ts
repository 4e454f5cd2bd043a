import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineRegistry, UnknownEngineError, type EngineLifecycle } from '../../src/audio/engine-registry.ts';
import { detectLanguage, languageHint } from '../../src/audio/language-detect.ts';
import { baseLanguage } from '../../src/audio/languages.ts';
import { chooseEngine } from '../../src/audio/vox/engine-choice.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { systemClock } from '../../src/body/clock.ts';
import { silentLogger } from '../helpers/audio.ts';

interface Probe extends EngineLifecycle {
  name: string;
  settings: Record<string, unknown>;
  events: string[];
}

function probes(config: ConfigStore) {
  const events: string[] = [];
  const registry = new EngineRegistry<Probe>({
    kind: 'Vox',
    config,
    clock: systemClock,
    logger: silentLogger(),
    activeKey: 'ACTIVE_VOX_ENGINE',
    settingsKey: 'VOX_ENGINE_SETTINGS',
  });
  const factory =
    (name: string) =>
    ({ settings }: { settings: Record<string, unknown> }): Probe => ({
      name,
      settings,
      events,
      setup: () => void events.push(`setup ${name}`),
      teardown: () => void events.push(`teardown ${name}`),
    });
  registry.register('alpha', factory('alpha'), { local: true }, ['a']);
  registry.register('beta', factory('beta'), { local: false });
  return { registry, events };
}

describe('engine registries', () => {
  let registry: EngineRegistry<Probe> | undefined;
  afterEach(async () => registry?.stop());

  it('builds the active engine from config with the settings JSON, once, and resolves aliases', async () => {
    const config = ConfigStore.fromSources({ environment: { ACTIVE_VOX_ENGINE: 'ALPHA', VOX_ENGINE_SETTINGS: '{"speed": 200}' } });
    const made = probes(config);
    registry = made.registry;
    const engine = await registry.get();
    expect(engine.name).toBe('alpha');
    expect(engine.settings).toEqual({ speed: 200 });
    expect(await registry.get('a')).toBe(engine);
    expect(made.events).toEqual(['setup alpha']);
    expect(registry.capabilities('a')).toEqual({ local: true });
    expect(registry.names()).toEqual(['alpha', 'beta']);
  });

  it('treats "disabled" as off and rejects unknown names', async () => {
    const config = ConfigStore.fromSources({ environment: { ACTIVE_VOX_ENGINE: 'disabled' } });
    registry = probes(config).registry;
    expect(registry.activeName()).toBeUndefined();
    await expect(registry.get()).rejects.toBeInstanceOf(UnknownEngineError);
    await expect(registry.get('gamma')).rejects.toThrow('Unknown Vox engine: gamma');
  });

  it('hot-switches: a new active engine or new settings tear the loaded engines down and rebuild on use', async () => {
    const config = ConfigStore.fromSources({ environment: { ACTIVE_VOX_ENGINE: 'alpha' } });
    const made = probes(config);
    registry = made.registry;
    await registry.get();
    await config.set('ACTIVE_VOX_ENGINE', 'beta');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await registry.get()).name).toBe('beta');
    await config.set('VOX_ENGINE_SETTINGS', '{"pitch": 10}');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await registry.get()).settings).toEqual({ pitch: 10 });
    expect(made.events).toEqual(['setup alpha', 'teardown alpha', 'setup beta', 'teardown beta', 'setup beta']);
  });

  it('loads an engine registered by module path when it is first used', async () => {
    const config = ConfigStore.fromSources({ environment: { VOX_ENGINE_SETTINGS: '{"x": 1}' } });
    registry = probes(config).registry;
    registry.register('echo', fileURLToPath(new URL('../fixtures/audio/echo-vox-engine.ts', import.meta.url)));
    const engine = await registry.get('echo');
    expect(engine.settings).toEqual({ x: 1 });
  });

  it('does not cache a failed start, so a later call can succeed', async () => {
    const config = ConfigStore.fromSources({});
    registry = new EngineRegistry<EngineLifecycle>({
      kind: 'Auris',
      config,
      clock: systemClock,
      logger: silentLogger(),
      activeKey: 'ACTIVE_AURIS_ENGINE',
    }) as unknown as EngineRegistry<Probe>;
    let attempts = 0;
    registry.register('flaky', () => {
      attempts += 1;
      if (attempts === 1) throw new Error('model missing');
      return { name: 'flaky', settings: {}, events: [] };
    });
    await expect(registry.get('flaky')).rejects.toThrow('model missing');
    expect((await registry.get('flaky')).name).toBe('flaky');
  });
});

describe('language detection', () => {
  it('detects English and French and passes a two-letter hint', () => {
    expect(detectLanguage('Hello there, how are you doing today?')?.code).toBe('en');
    expect(languageHint("Bonjour, comment allez-vous aujourd'hui ?")).toBe('fr');
  });

  it('gives no hint for text too short or too ambiguous to tell', () => {
    expect(languageHint('Hi!')).toBeUndefined();
    expect(languageHint('ok ok ok ok ok ok ok')).toBeUndefined();
  });

  it('normalises regional codes to the base language', () => {
    expect(baseLanguage('pt-BR')).toBe('pt');
    expect(baseLanguage('EN_us')).toBe('en');
  });
});

describe('VOX_LANGUAGE_OVERRIDES', () => {
  const overrides = { 'pt-BR': { engine: 'http', voice: 'ana', model: '' }, fr: { engine: 'disabled', voice: 'fr+f2' } };

  it('sends a language to its engine with the per-call voice, a regional key matching the base language', () => {
    expect(chooseEngine(undefined, 'pt', overrides)).toEqual({ engine: 'http', voice: 'ana', reason: 'language_override' });
  });

  it('keeps the default engine for "disabled" but still applies the voice', () => {
    expect(chooseEngine(undefined, 'fr', overrides)).toEqual({ engine: undefined, voice: 'fr+f2', reason: 'language_override' });
  });

  it('does not apply when the caller named an engine, or for languages not in the map', () => {
    expect(chooseEngine('local', 'pt', overrides)).toEqual({ engine: 'local', reason: 'explicit' });
    expect(chooseEngine(undefined, 'de', overrides)).toEqual({ engine: undefined, reason: 'active' });
    expect(chooseEngine(undefined, undefined, overrides)).toEqual({ engine: undefined, reason: 'active' });
  });
});
