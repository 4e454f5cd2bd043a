import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { injectBanter, WebcastError } from '../../../plugins/radio_host/injection/index.ts';
import { wrapPcm } from '../../../src/audio/wav.ts';
import { systemClock } from '../../../src/body/clock.ts';
import { pcmBytes, tone, toneWav } from '../../helpers/audio.ts';
import { freePort } from '../../helpers/free-port.ts';
import { type LiquidsoapHarbor, measureAudio, startHarbor } from '../../helpers/liquidsoap-harbor.ts';

const RATE = 22050;

/** One second of silence, `toneS` of tone, one second of silence: the silences show whether an end was cut. */
function framedTone(toneS: number): Buffer {
  const samples = new Int16Array((toneS + 2) * RATE);
  samples.set(tone(toneS, RATE), RATE);
  return wrapPcm(pcmBytes(samples), RATE);
}

describe('injectBanter into a real Liquidsoap harbor', () => {
  let harbor: LiquidsoapHarbor;
  let folder: string;
  const clip = (name: string) => join(folder, name);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-injection-harbor-'));
    await writeFile(clip('framed.wav'), framedTone(6));
    await writeFile(clip('short.wav'), toneWav(2, RATE));
    harbor = await startHarbor();
  });
  afterAll(async () => {
    await harbor?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const inject = (wavPath: string, gainDb = 0, password = harbor.password) =>
    // Liquidsoap plays what it gets in real time, so the pacing runs on the wall clock here.
    injectBanter(
      { wavPath, gainDb, webdjUrl: harbor.url, username: harbor.username, password, metadata: { title: 'Between songs', artist: 'Anima' } },
      systemClock,
    );

  it('plays a clip longer than the buffer whole, paced in real time, with its metadata', async () => {
    const result = await inject(clip('framed.wav'));
    expect(result.durationS).toBeCloseTo(8.25, 2);
    const recording = await harbor.nextRecording();
    const measured = await measureAudio(recording.path);
    // The whole clip and its tail guard of silence, less the harbor's last frame or two.
    expect(measured.durationS).toBeGreaterThanOrEqual(8);
    expect(measured.durationS).toBeLessThanOrEqual(result.durationS + 0.05);
    expect(measured.soundS).toBeCloseTo(6, 1);
    expect(harbor.metadata.at(-1)).toEqual({ title: 'Between songs', artist: 'Anima' });
  });

  it('plays a clip shorter than the buffer in its own session, padded with silence', async () => {
    const result = await inject(clip('short.wav'));
    expect(result.durationS).toBe(5.5);
    const measured = await measureAudio((await harbor.nextRecording()).path);
    expect(measured.soundS).toBeCloseTo(2, 1);
    expect(measured.durationS).toBeGreaterThanOrEqual(5.3);
  });

  it('applies the gain: two injections differ in level by the gain between them', async () => {
    await inject(clip('short.wav'), 0);
    const plain = await measureAudio((await harbor.nextRecording()).path);
    await inject(clip('short.wav'), 6);
    const louder = await measureAudio((await harbor.nextRecording()).path);
    expect(louder.maxVolumeDb - plain.maxVolumeDb).toBeCloseTo(6, 0);
    expect(louder.meanVolumeDb - plain.meanVolumeDb).toBeCloseTo(6, 0);
  });

  it('reports a wrong streamer password as auth', async () => {
    const error = await inject(clip('short.wav'), 0, 'wrong').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebcastError);
    expect(error).toMatchObject({ kind: 'auth', message: expect.stringContaining('refused the streamer login "dj"') });
  });

  it('reports another live broadcaster as busy', async () => {
    const loginsSoFar = harbor.logins();
    const other = new WebSocket(harbor.url, 'webcast');
    await new Promise((resolve, reject) => other.once('open', resolve).once('error', reject));
    const closed = new Promise((resolve) => other.once('close', resolve));
    other.send(JSON.stringify({ type: 'hello', data: { mime: 'audio/webm;codecs=opus', user: harbor.username, password: harbor.password } }));
    await harbor.loggedIn(loginsSoFar + 1);
    try {
      await expect(inject(clip('short.wav'))).rejects.toMatchObject({ kind: 'busy' });
    } finally {
      other.close();
      await closed;
    }
  });

  it('reports an unreachable harbor as connect', async () => {
    const unreachable = `ws://127.0.0.1:${await freePort()}/`;
    await expect(
      injectBanter({ wavPath: clip('short.wav'), gainDb: 0, webdjUrl: unreachable, username: 'dj', password: 'secret' }, systemClock),
    ).rejects.toMatchObject({
      kind: 'connect',
    });
  });
});
