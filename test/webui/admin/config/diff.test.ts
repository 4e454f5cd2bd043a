import { describe, expect, it } from 'vitest';
import { describeChange } from '../../../../src/webui/admin/config/diff.ts';
import type { ConfigEntry } from '../../../../src/webui/admin/config/entry.ts';

const entry = (overrides: Partial<ConfigEntry>): ConfigEntry => ({
  key: 'LOGGING_LEVEL',
  value: 'info',
  default: 'info',
  source: 'default',
  group: 'server',
  group_label: 'Server and access',
  label: 'Logging level',
  type: 'enum',
  description: 'Log level.',
  secret: false,
  restart: false,
  editable: true,
  ...overrides,
});

describe('the change line of the configuration page', () => {
  it('shows the value in use and the one to save', () => {
    expect(describeChange(entry({}), { kind: 'set', value: 'debug' })).toBe('LOGGING_LEVEL: info → debug');
    expect(describeChange(entry({ key: 'PROMPT_OVERRIDE', type: 'string', value: '' }), { kind: 'set', value: 'Be brief.' })).toBe(
      'PROMPT_OVERRIDE: (empty) → Be brief.',
    );
  });

  it('never shows a secret, and masks credentials inside other values as GET /api/config does', () => {
    const key = entry({ key: 'OPENAI_API_KEY', type: 'string', secret: true, value: { set: true }, default: { set: false } });
    expect(describeChange(key, { kind: 'set', value: 'sk-live-1234' })).toBe('OPENAI_API_KEY: set → a new value (hidden)');
    expect(describeChange(key, { kind: 'reset' })).toBe('OPENAI_API_KEY: set → default (not set)');
    const url = entry({ key: 'STATION_BASE_URL', type: 'string', value: '' });
    expect(describeChange(url, { kind: 'set', value: 'https://dj:hunter2@radio.example' })).toBe('STATION_BASE_URL: (empty) → https://dj:***@radio.example');
    const headers = entry({ key: 'HTTP_TTS_EXTRA_HEADERS', type: 'json', value: '{}' });
    expect(describeChange(headers, { kind: 'set', value: '{"Authorization": "Bearer hunter2", "X-Voice": "warm"}' })).toBe(
      'HTTP_TTS_EXTRA_HEADERS: {} → {"Authorization":"***","X-Voice":"warm"}',
    );
  });

  it('names the file an upload sends, and keeps a long value to one short line', () => {
    const certificate = entry({ key: 'APP_WEBUI_TLS_CERT', type: 'file', value: '' });
    expect(describeChange(certificate, { kind: 'upload', file: new File(['pem'], 'cert.pem') })).toBe('APP_WEBUI_TLS_CERT: (empty) → upload cert.pem');
    const prompt = entry({ key: 'PROMPT_OVERRIDE', type: 'string', value: '' });
    const line = describeChange(prompt, { kind: 'set', value: `You are\n${'very '.repeat(40)}kind.` });
    expect(line).toMatch(/^PROMPT_OVERRIDE: \(empty\) → You are very very .*…$/);
    expect(line.split('→')[1]?.trim()).toHaveLength(80);
  });
});
