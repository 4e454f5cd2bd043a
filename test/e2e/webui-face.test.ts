/**
 * The spec's "Facial handling in the client", rule by rule, in Chromium. The server is driven with real
 * messages (the body server's methods and the body API); the page's frame clock is held and stepped by
 * hand, and its random choices seeded, through `window.__app_face` (src/webui/avatar/face-probe.ts).
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmotionSnapshot } from '../../src/body/messages.ts';
import {
  launchBrowser,
  recordEvents,
  startServer,
  waitForAvatar,
  waitForRecorded,
  watchErrors,
  type RunningBrowser,
  type RunningServer,
} from '../helpers/browser.ts';

interface Sample {
  frame: number | null;
  weights: Record<string, number>;
  gaze: { x: number; y: number };
}

interface Probe {
  hold(): void;
  seed(seed: number): void;
  step(seconds: number, frames: number, keys?: string[]): Sample[];
}

/** Logical keys of this skin's persona, and presets at full weight so an overlay's level is its intensity. */
const PERSONA = {
  blendshape_map: { eyes_closed: 'blink', grin: 'happy', frown: 'angry' },
  emotions: { happy: { happy: 1 }, sad: { sad: 1 }, relaxed: { relaxed: 1 } },
  // No client-side decay: a vrm_face baseline stays put, so "back to the baseline" has one value.
  emotion_speed: { default: 4, decay: 0 },
};

/** write: two cues and fast blinks with still eyes; think: no blinks and quick saccades. */
const WRITE = {
  fps: 30,
  loop: { start_frame: 0, end_frame: 150 },
  expressions: [
    { start_frame: 30, end_frame: 59, targets: { grin: 0.9 }, source: 'e2e' },
    { start_frame: 90, end_frame: 119, targets: { frown: 0.6, surprised: 0.5 }, priority: 1 },
  ],
  blink: { auto: true, rate_s: 1, intensity: 0.8 },
  eye_movement: { auto: false },
};
const THINK = {
  fps: 30,
  intro: { start_frame: 0, end_frame: 20 },
  loop: { start_frame: 20, end_frame: 110 },
  outro: { start_frame: 110, end_frame: 130 },
  blink: { auto: false },
  eye_movement: { auto: true, saccade_rate_s: 0.4 },
};

const FRAME_S = 1 / 30;

function step(page: Page, seconds: number, frames: number, keys?: string[]): Promise<Sample[]> {
  return page.evaluate(([seconds, frames, keys]) => (globalThis as unknown as { __app_face: Probe }).__app_face.step(seconds, frames, keys), [
    seconds,
    frames,
    keys,
  ] as const);
}

/**
 * Steps `seconds` at a time (by default 1 ms: far too little for a blink or a saccade to fall due) until a
 * face message shows.
 */
async function stepUntil(page: Page, keys: string[], arrived: (sample: Sample) => boolean, seconds = 0.001): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [sample] = await step(page, seconds, 1, keys);
    if (sample && arrived(sample)) return;
    if (Date.now() > deadline) throw new Error(`the face never showed it; last ${JSON.stringify(sample)}`);
  }
}

/** Blinks: rising edges of the blink weight through 0.5 (a 0.16 s blink shows above it in every frame rate). */
function blinks(samples: Sample[]): number {
  let count = 0;
  let closed = false;
  for (const sample of samples) {
    const now = (sample.weights.blink ?? 0) > 0.5;
    if (now && !closed) count += 1;
    closed = now;
  }
  return count;
}

function gazeMoves(samples: Sample[]): number {
  let moves = 0;
  for (let index = 1; index < samples.length; index += 1) {
    const [before, after] = [samples[index - 1]?.gaze, samples[index]?.gaze];
    if (before && after && (before.x !== after.x || before.y !== after.y)) moves += 1;
  }
  return moves;
}

// Each test loads the avatar in a fresh page and steps hundreds of frames: slow on a loaded machine.
describe('web UI: facial handling in the client', { timeout: 150_000 }, () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let skins: string;

  beforeAll(async () => {
    skins = await mkdtemp(join(tmpdir(), 'anima-e2e-face-'));
    await cp(resolve('skins/default'), join(skins, 'default'), { recursive: true });
    // One write clip, so the server's random pick cannot choose one without the cues.
    await rm(join(skins, 'default/animations/write/Texting While Standing.fbx'));
    await rm(join(skins, 'default/animations/write/Texting While Standing.fbx.json'));
    await writeFile(join(skins, 'default/persona.json'), JSON.stringify(PERSONA));
    await writeFile(join(skins, 'default/animations/write/Texting.fbx.json'), JSON.stringify(WRITE));
    await writeFile(join(skins, 'default/animations/think/Thinking.fbx.json'), JSON.stringify(THINK));
    [server, browser] = await Promise.all([startServer({ environment: { SKINS_DIR: skins } }), launchBrowser()]);
    // No message is in the chain: without these the watchdog would end a state at its next tick.
    for (const state of ['think', 'write', 'talk']) server.test.services.body.registerWatchdogProbe(state, () => true);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (skins) await rm(skins, { recursive: true, force: true });
  });

  /** A page showing the avatar, its frame clock held and its random choices seeded. */
  async function openFace(seed: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    // The avatar can show before the socket's hello (the model loads early): the test drives the server
    // only once the welcome's animation command came through the socket.
    const joined = new Promise<void>((resolve) =>
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => {
          if (typeof payload === 'string' && payload.includes('"type":"vrm_animation"')) resolve();
        }),
      ),
    );
    await page.goto(server.url, { timeout: 90_000 });
    await waitForAvatar(page, 90_000);
    await joined;
    await recordEvents(page, ['app_animation_state_updated', 'anima:animation-section']);
    await page.evaluate((seed) => {
      const face = (globalThis as unknown as { __app_face: Probe }).__app_face;
      face.hold();
      face.seed(seed);
    }, seed);
    return { page, errors };
  }

  const body = () => server.test.services.body;
  const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload, remoteAddress: '127.0.0.1' });

  /** Runs `send` and waits until the page has the animation command for `action` that it causes. */
  async function command(page: Page, action: string, send: () => unknown): Promise<void> {
    await page.evaluate(() => {
      (globalThis as unknown as { __recorded: unknown[] }).__recorded.length = 0;
    });
    await send();
    await waitForRecorded<{ action?: string }>(page, (events) =>
      events.some((event) => event.type === 'app_animation_state_updated' && event.detail.action === action),
    );
  }

  it('resolves the logical keys of animation_state.expressions through blendshape_map, active between their frames only', async () => {
    const { page, errors } = await openFace(1);
    try {
      expect((await post('/api/body/action', { state: 'write', context_id: 'cues' })).json()).toMatchObject({ accepted: true, state: 'write' });
      await waitForRecorded<{ state?: string }>(page, (events) =>
        events.some((event) => event.type === 'anima:animation-section' && event.detail.state === 'write'),
      );
      // Two passes of the 151-frame loop.
      const samples = await step(page, FRAME_S, 320, ['happy', 'angry', 'surprised']);
      const frames = new Set(samples.map((sample) => sample.frame));
      for (const frame of [0, 29, 30, 59, 60, 89, 90, 119, 120, 150]) expect(frames, `frame ${frame} was shown`).toContain(frame);
      for (const { frame, weights } of samples) {
        const inFirst = frame !== null && frame >= 30 && frame <= 59;
        const inSecond = frame !== null && frame >= 90 && frame <= 119;
        expect(weights.happy, `happy at frame ${frame}`).toBeCloseTo(inFirst ? 0.9 : 0, 5);
        expect(weights.angry, `angry at frame ${frame}`).toBeCloseTo(inSecond ? 0.6 : 0, 5);
        expect(weights.surprised, `surprised at frame ${frame}`).toBeCloseTo(inSecond ? 0.5 : 0, 5);
      }
      expect(errors).toEqual([]);
    } finally {
      body().stopAnimation('cues');
      await page.context().close();
    }
  });

  describe('emotion overlay', () => {
    let emotions: EmotionSnapshot = { dominant: 'sad', values: {} };

    beforeAll(() => body().setEmotionSource(() => emotions));
    afterAll(() => body().setEmotionSource(undefined));

    /** One talk command carrying these emotions; the overlay measured in held frames from its arrival. */
    async function overlayOf(page: Page, values: Record<string, number>, run: number, seed: number) {
      emotions = { dominant: Object.keys(values)[0] ?? 'sad', values };
      await page.evaluate((seed) => (globalThis as unknown as { __app_face: Probe }).__app_face.seed(seed), seed);
      await command(page, 'talk', async () => {
        expect((await post('/api/body/action', { state: 'talk', context_id: `overlay-${run}` })).json()).toMatchObject({ accepted: true });
      });
      const samples = await step(page, FRAME_S, 240, ['happy', 'sad']);
      // Back to idle before the next seed, so that no late command draws from the seeded sequence.
      await command(page, 'idle', () => body().stopAnimation(`overlay-${run}`));
      const shown = (name: string) => samples.map((sample, index) => ({ index, weight: sample.weights[name] ?? 0 })).filter((entry) => entry.weight > 0);
      const happy = shown('happy');
      const sad = shown('sad');
      const [name, frames] = happy.length > 0 ? ['happy', happy] : ['sad', sad];
      return {
        name,
        both: happy.length > 0 && sad.length > 0,
        delayS: (frames[0]?.index ?? Number.NaN) * FRAME_S,
        durationS: frames.length * FRAME_S,
        peak: Math.max(0, ...frames.map((entry) => entry.weight)),
      };
    }

    it('shows the strongest emotion after a small random delay, for a time that grows with its intensity', async () => {
      const { page, errors } = await openFace(2);
      try {
        const strong = await overlayOf(page, { sad: 0.9, happy: 0.3 }, 1, 11);
        expect(strong).toMatchObject({ name: 'sad', both: false });
        expect(strong.peak).toBeCloseTo(0.9, 2);
        // 0.15-0.6 s after the command; (1.5 s + 3 s x intensity) x 0.85-1.15 (docs/decisions.md).
        expect(strong.delayS).toBeGreaterThanOrEqual(0.15 - FRAME_S);
        expect(strong.delayS).toBeLessThanOrEqual(0.6 + FRAME_S);
        expect(strong.durationS).toBeGreaterThanOrEqual(4.2 * 0.85 - 2 * FRAME_S);
        expect(strong.durationS).toBeLessThanOrEqual(4.2 * 1.15 + FRAME_S);
        const mild = await overlayOf(page, { happy: 0.2, sad: 0.1 }, 2, 11);
        expect(mild).toMatchObject({ name: 'happy', both: false });
        expect(mild.peak).toBeCloseTo(0.2, 2);
        expect(mild.durationS).toBeGreaterThanOrEqual(2.1 * 0.85 - 2 * FRAME_S);
        expect(mild.durationS).toBeLessThanOrEqual(2.1 * 1.15 + FRAME_S);
        expect(mild.durationS).toBeLessThan(strong.durationS);
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });

    it('breaks a tie between the strongest emotions at random', async () => {
      const { page, errors } = await openFace(3);
      try {
        const picked = new Set<string>();
        for (let run = 1; run <= 6; run += 1) {
          const overlay = await overlayOf(page, { happy: 0.5, sad: 0.5, relaxed: 0.2 }, run, 100 + run);
          expect(overlay.both).toBe(false);
          picked.add(overlay.name);
        }
        expect([...picked].sort()).toEqual(['happy', 'sad']);
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  });

  it('suspends blinks and saccades while eyes_closed is above 0.5, clamps it to 0.85, and resumes below', async () => {
    const { page, errors } = await openFace(4);
    const keys = ['blink'];
    try {
      body().setExpression('eyes_closed', 0.7);
      await stepUntil(page, keys, (sample) => (sample.weights.blink ?? 0) > 0);
      await step(page, FRAME_S, 45, keys);
      const closed = await step(page, FRAME_S, 300, keys);
      for (const sample of closed) expect(sample.weights.blink).toBeCloseTo(0.7, 2);
      expect(gazeMoves(closed)).toBe(0);

      body().setExpression('eyes_closed', 1);
      await stepUntil(page, keys, (sample) => (sample.weights.blink ?? 0) > 0.71);
      await step(page, FRAME_S, 45, keys);
      const clamped = await step(page, FRAME_S, 150, keys);
      for (const sample of clamped) expect(sample.weights.blink).toBeCloseTo(0.85, 5);
      expect(gazeMoves(clamped)).toBe(0);

      body().setExpression('eyes_closed', 0.3);
      // Blinks and saccades are suspended until it falls below 0.5: longer steps cannot start one early.
      await stepUntil(page, keys, (sample) => (sample.weights.blink ?? 1) < 0.84, 0.01);
      await step(page, FRAME_S, 15, keys);
      const open = await step(page, FRAME_S, 300, keys);
      // About one blink every 3.5 s and a saccade every 0.8-2.4 s come back within these 10 s.
      expect(blinks(open)).toBeGreaterThanOrEqual(2);
      expect(gazeMoves(open)).toBeGreaterThanOrEqual(4);
      expect(errors).toEqual([]);
    } finally {
      body().clearExpression();
      await page.context().close();
    }
  });

  it('lerps a vrm_expression_set in smoothly and vrm_expression_clear back to the baseline', async () => {
    const { page, errors } = await openFace(5);
    const keys = ['happy', 'relaxed'];
    try {
      body().setFaceValues({ relaxed: 0.5 });
      await stepUntil(page, keys, (sample) => (sample.weights.relaxed ?? 0) > 0);
      const [settled] = (await step(page, FRAME_S, 60, keys)).slice(-1);
      expect(settled?.weights.relaxed).toBeCloseTo(0.5, 2);

      body().setExpression('happy', 1);
      await stepUntil(page, keys, (sample) => (sample.weights.happy ?? 0) > 0);
      const rising = await step(page, 1 / 60, 60, keys);
      const happy = rising.map((sample) => sample.weights.happy ?? 0);
      expect(happy[0]).toBeLessThan(0.2);
      for (let index = 1; index < happy.length; index += 1) {
        expect(happy[index]).toBeGreaterThan(happy[index - 1] ?? 0);
        expect((happy[index] ?? 0) - (happy[index - 1] ?? 0)).toBeLessThan(0.15);
      }
      expect(happy.at(-1)).toBeGreaterThan(0.95);
      // The override takes the place of the emotional baseline while it shows.
      expect(rising.at(-1)?.weights.relaxed).toBeLessThan(0.05);

      body().clearExpression();
      await stepUntil(page, keys, (sample) => (sample.weights.happy ?? 1) < (happy.at(-1) ?? 1));
      const falling = await step(page, 1 / 60, 90, keys);
      const fading = falling.map((sample) => sample.weights.happy ?? 0);
      for (let index = 1; index < fading.length; index += 1) expect(fading[index]).toBeLessThanOrEqual(fading[index - 1] ?? 0);
      expect(fading.at(-1)).toBeLessThan(0.01);
      expect(falling.at(-1)?.weights.relaxed).toBeCloseTo(0.5, 2);

      // Each vrm_face is the whole emotional state: a key it leaves out eases back to 0.
      body().setFaceValues({ sad: 0.4 });
      const moods = ['relaxed', 'sad'];
      await stepUntil(page, moods, (sample) => (sample.weights.sad ?? 0) > 0);
      const replaced = (await step(page, FRAME_S, 60, moods)).at(-1);
      expect(replaced?.weights.sad).toBeCloseTo(0.4, 2);
      expect(replaced?.weights.relaxed).toBeLessThan(0.01);
      expect(errors).toEqual([]);
    } finally {
      body().setFaceValues({});
      await page.context().close();
    }
  });

  it('honours blink {auto, rate_s, intensity} and eye_movement {auto, saccade_rate_s}, and the defaults without them', async () => {
    const { page, errors } = await openFace(6);
    const keys = ['blink'];
    try {
      await command(page, 'write', () => post('/api/body/action', { state: 'write', context_id: 'eyes-write' }));
      const writing = await step(page, FRAME_S, 360, keys);
      // rate_s 1: a blink every 0.5-1.5 s, at least 7 in 12 s (the default would allow at most 4); still eyes.
      expect(blinks(writing)).toBeGreaterThanOrEqual(7);
      expect(gazeMoves(writing)).toBe(0);
      // intensity 0.8: no blink closes the eyes further.
      const deepest = Math.max(...writing.map((sample) => sample.weights.blink ?? 0));
      expect(deepest).toBeGreaterThan(0.7);
      expect(deepest).toBeLessThanOrEqual(0.8);

      await command(page, 'think', () => post('/api/body/action', { state: 'think', context_id: 'eyes-think' }));
      const thinking = await step(page, FRAME_S, 360, keys);
      // No blinks; a saccade every 0.2-0.6 s.
      expect(blinks(thinking)).toBe(0);
      expect(gazeMoves(thinking)).toBeGreaterThanOrEqual(20);

      await command(page, 'idle', () => {
        body().stopAnimation('eyes-think');
        body().stopAnimation('eyes-write');
      });
      const idle = await step(page, FRAME_S, 360, keys);
      // The shipped idle clip says nothing: a blink every 3-4 s, a saccade every 0.8-2.4 s.
      expect(blinks(idle)).toBeGreaterThanOrEqual(2);
      expect(blinks(idle)).toBeLessThanOrEqual(4);
      expect(gazeMoves(idle)).toBeGreaterThanOrEqual(4);
      expect(errors).toEqual([]);
    } finally {
      body().stopAnimation('eyes-think');
      body().stopAnimation('eyes-write');
      await page.context().close();
    }
  });
});
