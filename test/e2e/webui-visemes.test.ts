import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lipsync } from '../../src/audio/lipsync.ts';
import type { VisemeCue } from '../../src/audio/visemes.ts';
import { blendVisemes } from '../../src/webui/avatar/viseme-blend.ts';
import type { FakeOpenAi } from '../helpers/openai-server.ts';
import {
  ARTIFACTS,
  recordEvents,
  startModelStack,
  waitForAvatar,
  waitForRecorded,
  watchErrors,
  type ModelStack,
  type RunningBrowser,
  type RunningServer,
} from '../helpers/browser.ts';

type Mouth = 'aa' | 'ih' | 'ou' | 'ee' | 'oh';
/** One frame of `window.__app_mouth` (src/webui/avatar/mouth-probe.ts): the audio clock and the mouth's weights. */
interface MouthSample {
  url: string;
  time: number;
  weights: Record<Mouth, number>;
}
const PLAYBACK_RATE = 0.35;
/** Below this the mouth is taken as closed: nothing dominates. */
const OPEN = 0.15;

/** Page-side: the probe (written out in each page function, which is sent as source and sees no closure). */
type ProbeScope = { __app_mouth: { record(): void; samples(): MouthSample[]; weights(): Record<Mouth, number> | null; speaking(): boolean } };

/** The strongest mouth expression of a sample, or undefined when the mouth is (nearly) closed. */
function dominant(sample: MouthSample): Mouth | undefined {
  const [name, weight] = Object.entries(sample.weights).sort((a, b) => b[1] - a[1])[0] as [Mouth, number];
  return weight >= OPEN ? name : undefined;
}

/** Repeats removed: the order in which shapes follow each other. */
function collapse<T>(values: T[]): T[] {
  return values.filter((value, index) => index === 0 || value !== values[index - 1]);
}

function isSubsequence<T>(part: T[], whole: T[]): boolean {
  let at = 0;
  for (const value of whole) if (value === part[at]) at += 1;
  return at === part.length;
}

/** The default skin's mouth expressions for a blend of visemes, as its persona.json maps them. */
async function personaMouth(): Promise<(shapes: Partial<Record<Mouth, number>>) => Record<Mouth, number>> {
  const persona = JSON.parse(await readFile('skins/default/persona.json', 'utf8')) as {
    blendshape_map: Record<string, unknown> & { visemes?: Record<string, Record<string, number>> };
  };
  return (shapes) => {
    const weights: Record<Mouth, number> = { aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 };
    for (const [viseme, level] of Object.entries(shapes)) {
      const mapped = persona.blendshape_map[viseme];
      const preset = persona.blendshape_map.visemes?.[viseme] ?? { [typeof mapped === 'string' ? mapped : viseme]: 1 };
      for (const [name, weight] of Object.entries(preset)) if (name in weights) weights[name as Mouth] = Math.max(weights[name as Mouth], weight * level);
    }
    return weights;
  };
}

describe('web UI: the mouth follows the voice', () => {
  let fake: FakeOpenAi;
  let server: RunningServer;
  let browser: RunningBrowser;

  let stack: ModelStack | undefined;

  beforeAll(async () => {
    stack = await startModelStack();
    ({ fake, server, browser } = stack);
  });

  afterAll(async () => stack?.close());

  async function openWindow(): Promise<{ page: Page; errors: string[] }> {
    // A small canvas, and speech at a third of its speed: a loaded machine renders few frames per second
    // in software, and each frame is one sample of the mouth.
    const context = await browser.browser.newContext({ viewport: { width: 360, height: 360 } });
    await context.addInitScript((rate) => {
      const media = (globalThis as unknown as { HTMLMediaElement: { prototype: { play: () => Promise<void>; playbackRate: number } } }).HTMLMediaElement;
      const original = media.prototype.play;
      media.prototype.play = function play(this: { playbackRate: number }) {
        this.playbackRate = rate;
        return original.call(this);
      };
    }, PLAYBACK_RATE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url);
    await waitForAvatar(page);
    await recordEvents(page, ['app:tts-play']);
    await page.evaluate(() => (globalThis as unknown as ProbeScope).__app_mouth.record());
    return { page, errors };
  }

  it('moves the mouth through the visemes the server sent, in order, and two windows show the same mouth at the same audio time', {
    timeout: 180_000,
  }, async () => {
    const [a, b] = await Promise.all([openWindow(), openWindow()]);
    fake.script({
      kind: 'reply',
      text: '{"actions": [{"type": "tts_speak", "payload": {"text": "Hello there, how are you today? I am fine, thank you very much."}}, {"type": "message_webui", "payload": {"text": "Hello there!"}}]}',
    });
    await a.page.getByLabel('Message').fill('Talk to me');
    await a.page.getByRole('button', { name: 'Send' }).click();
    const [played] = await waitForRecorded<{ url: string; lipsync: Lipsync }>(a.page, (events) => events.length > 0, 40_000);
    const { url, lipsync } = played?.detail ?? { url: '?', lipsync: { mouths: [], duration: 0 } };
    const cues: VisemeCue[] = lipsync.visemes ?? [];
    expect(cues.length).toBeGreaterThan(10);
    await waitForRecorded(b.page, (events) => events.length > 0, 20_000);

    // Mid-speech, for the artifacts: the open mouth.
    await a.page.waitForTimeout(600);
    await a.page.locator('#avatar').screenshot({ path: join(ARTIFACTS, 'webui-visemes-speaking.png') });
    // Until the clip stops: slowed down, it is still playing when the server's speech ends, and that end
    // (the body's audio cleared) cuts it, so the windows are compared over the part they played.
    const heard = async (page: Page) => {
      await page.waitForFunction(() => !(globalThis as unknown as ProbeScope).__app_mouth.speaking(), undefined, {
        timeout: (lipsync.duration / PLAYBACK_RATE + 20) * 1000,
        polling: 200,
      });
      return (await page.evaluate(() => (globalThis as unknown as ProbeScope).__app_mouth.samples())).filter((sample) => sample.url.endsWith(url));
    };
    const [samplesA, samplesB] = [await heard(a.page), await heard(b.page)];
    expect(samplesA.length).toBeGreaterThan(20);
    expect(samplesB.length).toBeGreaterThan(20);

    // The audio clock only moves forward: the clip plays once, from its start. (A window that seeks a clip
    // it is just starting, as it did to the body's offset of a millisecond on a loaded server, may replay
    // its beginning, and then the mouth rightly shows the start again.)
    const times = samplesA.map((sample) => sample.time);
    expect(times.filter((time, index) => index > 0 && time < (times[index - 1] ?? 0))).toEqual([]);
    // The order the server sent: every shape the page showed, in the track's order, three or more of them.
    const sent = collapse(cues.filter((cue) => cue.viseme !== 'sil').map((cue) => cue.viseme));
    const shown = collapse(samplesA.map(dominant).filter((mouth) => mouth !== undefined));
    expect(new Set(shown).size).toBeGreaterThanOrEqual(3);
    expect(isSubsequence(shown, sent), `shown ${shown.join(' ')} / sent ${sent.join(' ')}`).toBe(true);

    // Same audio time, same mouth: in both windows every frame shows exactly the track's blend at that
    // frame's audio time (no frame-rate dependent easing), so at equal currentTime the mouths are equal.
    const mouthOf = await personaMouth();
    for (const [window, samples] of [
      ['A', samplesA],
      ['B', samplesB],
    ] as const) {
      for (const sample of samples) {
        const expected = mouthOf(blendVisemes(cues, sample.time, lipsync.duration));
        for (const name of Object.keys(expected) as Mouth[]) {
          expect(sample.weights[name], `${window}: ${name} at ${sample.time}`).toBeCloseTo(expected[name], 3);
        }
      }
    }
    // The mouth closes with the speech: no shape is held after it.
    await a.page.waitForTimeout(1500);
    const after = await a.page.evaluate(() => (globalThis as unknown as ProbeScope).__app_mouth.weights());
    expect(Math.max(...Object.values(after ?? { none: 1 }))).toBeLessThan(0.05);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
