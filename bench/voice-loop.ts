import type WebSocket from 'ws';
import { audioHarness, pcmFrames, spokenPcm, streamAtRealTime } from '../test/helpers/audio.ts';
import { openSocket, type OpenedSocket } from '../test/helpers/sockets.ts';
import { startModelServer, startServer } from './lib/child-process.ts';
import { percentile, type Benchmark } from './lib/report.ts';

const TURNS = 5;
const RATE = 16000;
const QUESTION = 'what time is it';
/** Three sentences: the first can be spoken while the model still writes the others. */
const ANSWER = 'It is twelve o clock. Time for lunch, I would say. Shall I find a recipe for something warm?';
/** A model whose first token takes 200 ms, then streams four characters every 20 ms. */
const MODEL = { kind: 'reply' as const, text: ANSWER, chunkSize: 4, delayMs: 20, firstTokenMs: 200 };
/** Generous: a loaded machine (or the first, cold turn) can take many seconds. */
const TURN_TIMEOUT_MS = 90_000;

type Frame = { type: string; [key: string]: unknown };

/**
 * The voice loop, end to end over real sockets: a spoken question (espeak, resampled to 16 kHz) streamed
 * at real-time pace over WS /api/audio/stream bound to the web conversation of an open /ws window, heard
 * by pocketsphinx (a one-phrase grammar), answered by a local model server (first token after 200 ms),
 * spoken sentence by sentence by espeak. Figure: from the last voiced audio sent to the first tts_play
 * received, p50 over the turns; beside it the same turn until its last piece's tts_play, which is when
 * the whole answer, spoken at once, could have started at best.
 */
const bench: Benchmark = async (report) => {
  const { child: model, baseUrl } = await startModelServer(MODEL);
  const anima = await startServer(new URL('./lib/anima-voice-process.ts', import.meta.url), [
    JSON.stringify({
      CORTEX_ENGINE: 'openai',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_MODEL: 'bench',
      LIVE_CORTEX: 'vad',
      ACTIVE_AURIS_ENGINE: 'pocketsphinx',
      AURIS_ENGINE_SETTINGS: JSON.stringify({ phrases: [QUESTION] }),
      WEBUI_SPEAK_REPLIES: 'true',
    }),
  ]);
  const voice = await audioHarness();
  const sockets: OpenedSocket[] = [];
  try {
    const question = await spokenPcm(voice.audio, QUESTION, 0.8, RATE);
    const frames = pcmFrames(question, RATE);
    const lastVoiced = lastVoicedFrame(question);
    const base = `ws://127.0.0.1:${anima.port}`;

    const window = await openSocket(`${base}/ws`);
    sockets.push(window);
    const plays: Array<{ at: number; frame: Frame }> = [];
    window.socket.on('message', (data: WebSocket.RawData) => {
      const at = performance.now();
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === 'tts_play' || frame.type === 'turn_stages') plays.push({ at, frame });
      if (process.env.VOICE_LOOP_TRACE) report.progress(`${Math.round(at)} ${frame.type} ${JSON.stringify(frame).slice(0, 160)}`);
    });
    window.socket.send(JSON.stringify({ type: 'hello', has_assets: [] }));
    const history = (await window.next((message) => (message as Frame).type === 'chat_history', 10_000)) as Frame;
    window.socket.send(JSON.stringify({ type: 'voice', speak: true }));

    const mic = await openSocket(`${base}/api/audio/stream`);
    sockets.push(mic);
    mic.socket.send(JSON.stringify({ type: 'hello' }));
    mic.socket.send(JSON.stringify({ sample_rate: RATE, engine: 'vad', interface_path: history.interface_path }));
    await mic.next((message) => (message as Frame).type === 'ready', 10_000);

    const first: number[] = [];
    const whole: number[] = [];
    const stt: number[] = [];
    // One turn more than counted: the first warms the recogniser, the voice and the model connection.
    for (let turn = 0; turn <= TURNS; turn += 1) {
      const seen = plays.length;
      const sentAt = await streamAtRealTime((frame) => mic.socket.send(frame), frames);
      const endOfSpeech = sentAt[lastVoiced] as number;
      const done = await until(() => plays.slice(seen).find(({ frame }) => frame.type === 'tts_play' && frame.last === true), TURN_TIMEOUT_MS);
      const stages = await until(() => plays.slice(seen).find(({ frame }) => frame.type === 'turn_stages'), 5000).catch(() => undefined);
      const opening = plays.slice(seen).find(({ frame }) => frame.type === 'tts_play' && frame.utterance_id === done.frame.utterance_id);
      if (turn === 0 || !opening) continue;
      first.push(opening.at - endOfSpeech);
      whole.push(done.at - endOfSpeech);
      const heard = (stages?.frame.stages as Record<string, unknown> | undefined)?.stt;
      if (typeof heard === 'number') stt.push(heard * 1000);
      report.progress(`turn ${turn}/${TURNS}: first audio ${Math.round(opening.at - endOfSpeech)} ms, whole answer ${Math.round(done.at - endOfSpeech)} ms`);
    }
    report.figure('silence_before_end_ms', 500, 'ms of LIVE_VAD_SILENCE_MS inside every figure below');
    report.figure('anticipate_ms', 200, 'ms of silence after which the answer starts, held until the end is certain (LIVE_VAD_ANTICIPATE_MS)');
    if (stt.length > 0) report.figure('stt_p50_ms', percentile(stt, 50), 'ms speech_end to the final transcript');
    report.figure('whole_answer_p50_ms', percentile(whole, 50), 'ms end of speech to the last piece (no streaming: the answer spoken at once)');
    report.figure('voice_loop_p50_ms', percentile(first, 50), 'ms end of speech to the first tts_play (target <= 800)');
    report.figure('streamed_over_whole', percentile(first, 50) / percentile(whole, 50), 'x');
  } finally {
    for (const { socket } of sockets) socket.terminate();
    await voice.close();
    anima.stop();
    model.disconnect();
  }
};

/** The index of the last 20 ms frame loud enough to be speech: when the person stopped talking. */
function lastVoicedFrame(samples: Int16Array): number {
  const frame = RATE / 50;
  for (let start = Math.floor(samples.length / frame) * frame - frame; start >= 0; start -= frame) {
    let energy = 0;
    for (let i = start; i < start + frame; i += 1) energy += (samples[i] ?? 0) ** 2;
    if (Math.sqrt(energy / frame) > 500) return start / frame;
  }
  return 0;
}

/** Polls `find` until it gives something, or fails the run after `timeoutMs`. */
async function until<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (performance.now() > deadline) throw new Error('a turn was not answered in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export default bench;
