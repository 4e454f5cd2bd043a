import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EMOTION_SPEED, PERSONA_RECHECK_MS, PersonaReader } from '../../src/body/persona.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

describe('PersonaReader', () => {
  let skins: string;
  const warnings: unknown[] = [];
  const clock = new ManualClock();
  const reader = () => new PersonaReader(skins, { warn: (object: unknown) => void warnings.push(object) }, clock);
  const write = async (skin: string, content: string) => {
    await mkdir(join(skins, skin), { recursive: true });
    await writeFile(join(skins, skin, 'persona.json'), content);
  };

  beforeEach(async () => {
    skins = await mkdtemp(join(tmpdir(), 'anima-persona-'));
    warnings.length = 0;
  });
  afterEach(async () => rm(skins, { recursive: true, force: true }));

  it("reads the active skin's emotions and speeds, else the fallback skin's", async () => {
    await write(
      'default',
      JSON.stringify({ emotions: { happy: { happy: 0.8 } }, emotion_speed: { default: 2, decay: 0.5 }, blendshape_map: { smile: 'happy' } }),
    );
    await write('alt', JSON.stringify({ emotions: { sad: { Sorrow: 1 } } }));
    expect(await reader().read('alt')).toEqual({ skin: 'alt', emotions: { sad: { Sorrow: 1 } }, emotion_speed: DEFAULT_EMOTION_SPEED });
    expect(await reader().read('none')).toEqual({ skin: 'default', emotions: { happy: { happy: 0.8 } }, emotion_speed: { default: 2, decay: 0.5 } });
  });

  it('reads a broken or invalid file as a persona without emotions, with a warning', async () => {
    await write('default', '{ not json');
    expect((await reader().read('default')).emotions).toEqual({});
    await write('default', JSON.stringify({ emotions: { happy: { happy: 3 } } }));
    expect((await reader().read('default')).emotions).toEqual({});
    expect(warnings).toHaveLength(2);
  });

  it('reads the file again once it changed, looking at most once a second for the same skin', async () => {
    const persona = reader();
    await write('default', JSON.stringify({ emotions: { happy: { happy: 0.5 } } }));
    expect(Object.keys((await persona.read('default')).emotions)).toEqual(['happy']);
    await write('default', JSON.stringify({ emotions: { calm: { relaxed: 0.5 } } }));
    const later = new Date(Date.now() + 5000);
    await utimes(join(skins, 'default', 'persona.json'), later, later);
    clock.advance(PERSONA_RECHECK_MS - 1);
    expect(Object.keys((await persona.read('default')).emotions)).toEqual(['happy']);
    clock.advance(1);
    expect(Object.keys((await persona.read('default')).emotions)).toEqual(['calm']);
  });

  it('looks again at once when the active skin changes', async () => {
    const persona = reader();
    await write('default', JSON.stringify({ emotions: { happy: { happy: 0.5 } } }));
    await write('alt', JSON.stringify({ emotions: { sad: { Sorrow: 1 } } }));
    expect(Object.keys((await persona.read('default')).emotions)).toEqual(['happy']);
    expect(Object.keys((await persona.read('alt')).emotions)).toEqual(['sad']);
  });
});
