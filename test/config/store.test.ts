import { describe, expect, it } from 'vitest';
import { httpTtsEndpoints, httpTtsTimeoutSeconds } from '../../src/audio/vox/http-tts-settings.ts';
import {
  ConfigStore,
  InvalidConfigurationError,
  InvalidValueError,
  UnknownVariableError,
  type ConfigChange,
  type OverrideStore,
} from '../../src/config/store.ts';

/** An override store kept in a plain object, standing in for the config_entries table. */
function memoryOverrides(initial: Record<string, string> = {}): OverrideStore & { saved: Record<string, string> } {
  const saved = { ...initial };
  return {
    saved,
    load: async () => ({ ...saved }),
    save: async (key, value) => {
      saved[key] = value;
    },
    remove: async (key) => void delete saved[key],
  };
}

describe('configuration precedence', () => {
  it('uses the schema default when no source sets a variable', () => {
    const config = ConfigStore.fromSources({});
    expect(config.get('CHAT_HISTORY')).toBe(10);
    expect(config.get('APP_WEBUI_HTTP_PORT')).toBe(8001);
    expect(config.get('DATABASE_URL')).toBe('sqlite:backups/anima.sqlite');
    expect(config.sourceOf('CHAT_HISTORY')).toBe('default');
  });

  it('lets .env beat defaults, the environment beat .env, and saved entries beat the environment', async () => {
    const config = ConfigStore.fromSources({
      envFile: { CHAT_HISTORY: '11', COMPAT_MAX_HISTORY: '5', OPENAI_MODEL: 'from-file' },
      environment: { CHAT_HISTORY: '12', OPENAI_MODEL: 'from-env' },
    });
    expect(config.get('COMPAT_MAX_HISTORY')).toBe(5);
    expect(config.sourceOf('COMPAT_MAX_HISTORY')).toBe('env_file');
    expect(config.get('CHAT_HISTORY')).toBe(12);
    expect(config.sourceOf('CHAT_HISTORY')).toBe('environment');
    await config.attachOverrides(memoryOverrides({ OPENAI_MODEL: 'saved' }));
    expect(config.get('OPENAI_MODEL')).toBe('saved');
    expect(config.sourceOf('OPENAI_MODEL')).toBe('override');
  });

  it('ignores environment variables that are not Anima variables', () => {
    const config = ConfigStore.fromSources({ environment: { PATH: '/usr/bin', HOME: '/root' } });
    expect(config.keys()).not.toContain('PATH');
  });
});

describe('legacy aliases', () => {
  it('reads CHAT_HISTORY_LIMIT as CHAT_HISTORY', () => {
    const config = ConfigStore.fromSources({ environment: { CHAT_HISTORY_LIMIT: '25' } });
    expect(config.get('CHAT_HISTORY')).toBe(25);
  });

  it('prefers CHAT_HISTORY when a source sets both names', () => {
    const config = ConfigStore.fromSources({ environment: { CHAT_HISTORY_LIMIT: '25', CHAT_HISTORY: '7' } });
    expect(config.get('CHAT_HISTORY')).toBe(7);
  });

  it('lets an alias in the environment beat the canonical name in .env', () => {
    const config = ConfigStore.fromSources({ envFile: { CHAT_HISTORY: '3' }, environment: { CHAT_HISTORY_LIMIT: '4' } });
    expect(config.get('CHAT_HISTORY')).toBe(4);
  });

  it('saves an alias under its canonical name', async () => {
    const config = ConfigStore.fromSources({});
    const overrides = memoryOverrides();
    await config.attachOverrides(overrides);
    expect(await config.set('CHAT_HISTORY_LIMIT', '30')).toBe('CHAT_HISTORY');
    expect(overrides.saved).toEqual({ CHAT_HISTORY: '30' });
    expect(config.get('CHAT_HISTORY')).toBe(30);
  });

  it('falls back to TTS_ENDPOINTS and TTS_TIMEOUT_SECONDS when the new names are empty or zero', () => {
    const legacy = ConfigStore.fromSources({ environment: { TTS_ENDPOINTS: 'http://a/tts, http://b/tts' } });
    expect(httpTtsEndpoints(legacy)).toEqual(['http://a/tts', 'http://b/tts']);
    expect(httpTtsTimeoutSeconds(legacy)).toBe(300);
    const current = ConfigStore.fromSources({
      environment: { TTS_ENDPOINTS: 'http://old', HTTP_TTS_ENDPOINTS: 'http://new', TTS_TIMEOUT_SECONDS: '60', HTTP_TTS_TIMEOUT_SECONDS: '5' },
    });
    expect(httpTtsEndpoints(current)).toEqual(['http://new']);
    expect(httpTtsTimeoutSeconds(current)).toBe(5);
    expect(httpTtsTimeoutSeconds(ConfigStore.fromSources({ environment: { TTS_TIMEOUT_SECONDS: '60' } }))).toBe(60);
  });
});

describe('value validation', () => {
  it('refuses to start with an invalid environment value and names the variable', () => {
    const attempt = () => ConfigStore.fromSources({ environment: { APP_WEBUI_HTTP_PORT: 'eighty', VOX_FALLBACK_TO_TEXT: 'maybe' } });
    expect(attempt).toThrow(InvalidConfigurationError);
    try {
      attempt();
    } catch (error) {
      expect((error as InvalidConfigurationError).invalid.map((entry) => entry.key).sort()).toEqual(['APP_WEBUI_HTTP_PORT', 'VOX_FALLBACK_TO_TEXT']);
    }
  });

  it('parses booleans, lists, numbers and JSON', () => {
    const config = ConfigStore.fromSources({
      environment: {
        VOX_FALLBACK_TO_TEXT: 'no',
        TRAINER_IDS: 'telegram:1, discord:2,,',
        STT_LOCAL_LID_CONFIDENCE: '0.75',
        VOX_LANGUAGE_OVERRIDES: '{"it": {"engine": "http", "voice": "giulia"}}',
      },
    });
    expect(config.get('VOX_FALLBACK_TO_TEXT')).toBe(false);
    expect(config.get('TRAINER_IDS')).toEqual(['telegram:1', 'discord:2']);
    expect(config.get('STT_LOCAL_LID_CONFIDENCE')).toBe(0.75);
    expect(config.get('VOX_LANGUAGE_OVERRIDES')).toEqual({ it: { engine: 'http', voice: 'giulia' } });
  });

  it('refuses a bad JSON value on write and stores nothing', async () => {
    const config = ConfigStore.fromSources({});
    const overrides = memoryOverrides();
    await config.attachOverrides(overrides);
    await expect(config.set('VOX_LANGUAGE_OVERRIDES', '{"it": {"voice": "no engine"}}')).rejects.toThrow(InvalidValueError);
    await expect(config.set('HTTP_TTS_EXTRA_HEADERS', '{not json')).rejects.toThrow(InvalidValueError);
    await expect(config.set('AURIS_ENGINE_SETTINGS', '[1,2]')).rejects.toThrow(InvalidValueError);
    await expect(config.set('STT_LOCAL_LID_CONFIDENCE', '1.5')).rejects.toThrow(InvalidValueError);
    expect(overrides.saved).toEqual({});
    expect(config.get('VOX_LANGUAGE_OVERRIDES')).toEqual({});
  });

  it('rejects unknown variables and variables that live only in the environment', async () => {
    const config = ConfigStore.fromSources({});
    await expect(config.set('NOT_A_VARIABLE', '1')).rejects.toThrow(UnknownVariableError);
    await expect(config.set('DATABASE_URL', 'sqlite:elsewhere.sqlite')).rejects.toThrow(InvalidValueError);
  });

  it('skips a saved entry that no longer validates and reports it', async () => {
    const config = ConfigStore.fromSources({});
    const skipped = await config.attachOverrides(memoryOverrides({ CHAT_HISTORY: 'lots', OPENAI_MODEL: 'ok-model' }));
    expect(skipped.map((entry) => entry.key)).toEqual(['CHAT_HISTORY']);
    expect(config.get('CHAT_HISTORY')).toBe(10);
    expect(config.get('OPENAI_MODEL')).toBe('ok-model');
    expect(config.ignoredEntry('CHAT_HISTORY')).toEqual({ value: 'lots', reason: 'no longer valid: expected a number' });
    expect(config.ignoredEntry('OPENAI_MODEL')).toBeUndefined();
  });

  it('refuses durations beyond what a timer can wait, from the environment too', () => {
    const attempt = () => ConfigStore.fromSources({ environment: { CORTEX_TIMEOUT_S: '3000000' } });
    expect(attempt).toThrow(InvalidConfigurationError);
    expect(attempt).toThrow(/CORTEX_TIMEOUT_S \(environment\): at most 2147483 seconds/);
  });

  it('accepts any engine voice as <ENGINE>_VOICE', async () => {
    const config = ConfigStore.fromSources({ environment: { KOKORO_VOICE: 'af_bella' } });
    expect(config.voiceOf('kokoro')).toBe('af_bella');
    await config.set('MY_ENGINE_VOICE', 'alto');
    expect(config.voiceOf('my-engine')).toBe('alto');
    expect(config.voiceOf('unknown')).toBe('');
  });
});

describe('saved entries set aside', () => {
  it('leaves a set-aside entry out at attach, keeps it stored, and says why', async () => {
    const config = ConfigStore.fromSources({ environment: { APP_WEBUI_HTTP_PORT: '0' } });
    const overrides = memoryOverrides({ APP_WEBUI_HTTP_PORT: '11435', OPENAI_MODEL: 'saved' });
    config.setAsideSaved('APP_WEBUI_HTTP_PORT', 'port in use');
    expect(await config.attachOverrides(overrides)).toEqual([]);
    expect(config.get('APP_WEBUI_HTTP_PORT')).toBe(0);
    expect(config.sourceOf('APP_WEBUI_HTTP_PORT')).toBe('environment');
    expect(config.ignoredEntry('APP_WEBUI_HTTP_PORT')).toEqual({ value: '11435', reason: 'port in use' });
    expect(config.get('OPENAI_MODEL')).toBe('saved');
    expect(overrides.saved).toEqual({ APP_WEBUI_HTTP_PORT: '11435', OPENAI_MODEL: 'saved' });
  });

  it('stops reporting an ignored entry once it is saved again or reset', async () => {
    const config = ConfigStore.fromSources({});
    const overrides = memoryOverrides({ CHAT_HISTORY: 'lots', APP_WEBUI_HTTP_PORT: '1' });
    config.setAsideSaved('APP_WEBUI_HTTP_PORT', 'permission denied');
    await config.attachOverrides(overrides);
    await config.set('CHAT_HISTORY', '12');
    await config.set('APP_WEBUI_HTTP_PORT', null);
    expect(config.ignoredEntry('CHAT_HISTORY')).toBeUndefined();
    expect(config.ignoredEntry('APP_WEBUI_HTTP_PORT')).toBeUndefined();
    expect(overrides.saved).toEqual({ CHAT_HISTORY: '12' });
  });
});

describe('change events', () => {
  it('emits one event per changed key with the new and previous parsed values', async () => {
    const config = ConfigStore.fromSources({});
    await config.attachOverrides(memoryOverrides());
    const changes: ConfigChange[] = [];
    config.on('change', (change) => changes.push(change));
    await config.set('CHAT_HISTORY', '15');
    await config.set('TRAINER_IDS', 'webui:me');
    expect(changes).toEqual([
      { key: 'CHAT_HISTORY', value: 15, previous: 10 },
      { key: 'TRAINER_IDS', value: ['webui:me'], previous: [] },
    ]);
  });

  it('emits nothing when the effective value does not change', async () => {
    const config = ConfigStore.fromSources({ environment: { CHAT_HISTORY: '10' } });
    await config.attachOverrides(memoryOverrides());
    const changes: ConfigChange[] = [];
    config.on('change', (change) => changes.push(change));
    await config.set('CHAT_HISTORY', '10');
    await config.set('VOX_FALLBACK_TO_TEXT', 'yes');
    expect(changes).toEqual([]);
  });

  it('restores the lower layer when a saved entry is reset', async () => {
    const config = ConfigStore.fromSources({ environment: { OPENAI_MODEL: 'env-model' } });
    const overrides = memoryOverrides();
    await config.attachOverrides(overrides);
    await config.set('OPENAI_MODEL', 'saved-model');
    const changes: ConfigChange[] = [];
    config.on('change', (change) => changes.push(change));
    await config.set('OPENAI_MODEL', null);
    expect(config.get('OPENAI_MODEL')).toBe('env-model');
    expect(config.sourceOf('OPENAI_MODEL')).toBe('environment');
    expect(overrides.saved).toEqual({});
    expect(changes).toEqual([{ key: 'OPENAI_MODEL', value: 'env-model', previous: 'saved-model' }]);
  });
});
