import { describe, expect, it } from 'vitest';
import { readableName } from '../../src/config/define.ts';
import { ConfigStore } from '../../src/config/store.ts';
import { viewEntry } from '../../src/config/view.ts';

describe('the configuration page view of a variable', () => {
  it('carries a human label and its group title', () => {
    const config = ConfigStore.fromSources({ envFile: {}, environment: {} });
    expect(viewEntry(config, 'LOGGING_LEVEL')).toMatchObject({ label: 'Logging level', group: 'server', group_label: 'Server and access' });
    // A label given in the schema wins over the one read from the name.
    expect(viewEntry(config, 'APP_WEBUI_TLS_KEY')).toMatchObject({ label: 'HTTPS private key', type: 'file' });
    expect(viewEntry(config, 'PIPER_VOICE')).toMatchObject({ label: 'Piper voice', group_label: 'Voice and speech' });
  });

  it('reads a label from a name: words in lower case, known acronyms and units written as people write them', () => {
    expect(readableName('APP_API_KEY')).toBe('API key');
    expect(readableName('OPENAI_TIMEOUT_S')).toBe('OpenAI timeout (seconds)');
    expect(readableName('COMPANION_UPLOAD_TTL_DAYS')).toBe('Companion upload TTL (days)');
    expect(readableName('APP_WEBUI_HTTPS_PORT')).toBe('Web UI HTTPS port');
    expect(readableName('SKINS_DIR')).toBe('Skins folder');
    expect(readableName('S')).toBe('S');
  });
});
