import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderEnvExample } from '../../src/config/env-example.ts';
import { variables } from '../../src/config/schema.ts';

describe('.env.example', () => {
  const committed = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

  it('is the rendering of the configuration schema (run npm run env:example after changing a variable)', () => {
    expect(committed).toBe(renderEnvExample());
  });

  it('documents every variable with its default', () => {
    for (const [key, definition] of Object.entries(variables)) {
      expect(committed).toContain(`\n${key}=${definition.default}\n`);
    }
  });
});
