/**
 * `window.__app_mouth`: for browser tests of lip-sync. Once `record()` is called, every frame notes the
 * speech audio's clock and the weights the face wrote to the model's mouth expressions, so a test can
 * compare the mouth with the server's viseme track, or two windows at the same audio time.
 */
import type { VRM } from '@pixiv/three-vrm';
import type { Speech } from './speech.ts';
import type { Stage } from './stage.ts';

const MOUTH = ['aa', 'ih', 'ou', 'ee', 'oh'] as const;
/** About a minute of frames; a test reads them long before. */
const KEEP = 4000;

export interface MouthSample {
  url: string;
  /** The audio element's currentTime. */
  time: number;
  weights: Record<(typeof MOUTH)[number], number>;
}

export interface MouthProbe {
  record(): void;
  /** The frames recorded while speech played. */
  samples(): MouthSample[];
  /** The mouth's weights now, speech or not; null before the model shows. */
  weights(): MouthSample['weights'] | null;
  /** Whether a speech clip is playing (or waiting for the autoplay unlock): false once it ended or was stopped. */
  speaking(): boolean;
}

declare global {
  interface Window {
    __app_mouth?: MouthProbe;
  }
}

export function installMouthProbe(stage: Stage, speech: Speech, shown: () => { vrm: VRM } | undefined): void {
  let samples: MouthSample[] | undefined;
  const weights = () => {
    const manager = shown()?.vrm.expressionManager;
    return manager ? (Object.fromEntries(MOUTH.map((name) => [name, manager.getValue(name) ?? 0])) as MouthSample['weights']) : null;
  };
  stage.onFrame(() => {
    const position = speech.position();
    const now = samples && position ? weights() : null;
    if (!samples || !position || !now) return;
    samples.push({ ...position, weights: now });
    if (samples.length > KEEP) samples.shift();
  });
  window.__app_mouth = {
    record: () => {
      samples = [];
    },
    samples: () => samples ?? [],
    weights,
    speaking: () => speech.current() !== undefined,
  };
}
