/**
 * The microphone as 16 kHz 16-bit mono PCM: getUserMedia with the browser's echo cancellation (which
 * covers the speech the page plays through its audio element), noise suppression and gain control,
 * through the pcm-worklet AudioWorklet, 20 ms per chunk.
 */

/** The processor pcm-worklet.ts registers. */
const PROCESSOR_NAME = 'anima-pcm-16k';
export const CAPTURE_RATE = 16000;

/** The worklet module's hashed URL, which the build writes into index.html. */
function workletUrl(): string {
  const url = document.querySelector<HTMLMetaElement>('meta[name="anima-pcm-worklet"]')?.content;
  if (!url) throw new Error('the page names no microphone worklet');
  return url;
}

export interface Capture {
  stop(): void;
}

/** Rejects with getUserMedia's own errors (NotAllowedError when the person or the browser refused). */
export async function startCapture(onPcm: (chunk: ArrayBuffer) => void): Promise<Capture> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('this page cannot reach a microphone (it needs https or localhost)', 'NotSupportedError');
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
  });
  const context = new AudioContext();
  try {
    await context.audioWorklet.addModule(workletUrl());
    const source = context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(context, PROCESSOR_NAME);
    node.port.onmessage = (event: MessageEvent<ArrayBuffer>) => onPcm(event.data);
    // Connected to the output so the graph runs; the processor writes silence there.
    source.connect(node).connect(context.destination);
    await context.resume();
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    void context.close();
    throw error;
  }
  return {
    stop: () => {
      for (const track of stream.getTracks()) track.stop();
      void context.close();
    },
  };
}
