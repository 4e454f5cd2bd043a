import type { FastifyPluginAsync } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import type { Clock, TimerHandle } from '../body/clock.ts';
import { UnknownEngineError } from '../audio/engine-registry.ts';
import type { LiveEvent } from '../audio/live/contract.ts';
import type { LiveSession, LiveSink } from '../audio/live/live-plugin.ts';
import { webChatIfLoaded } from '../chat/web-chat-interface.ts';
import type { Services } from '../services.ts';
import type { Metrics } from '../system/metrics.ts';
import { heardTiming, isWebConversation, type VoiceConversations, webVoiceBinding } from './web-voice.ts';

/**
 * The first frame after the hello. `engine` defaults to LIVE_CORTEX. `interface_path` binds the socket to
 * a web conversation a window shows: finals are heard there, and speech interrupts what it says aloud.
 */
export const LiveConfigFrameSchema = z.looseObject({
  sample_rate: z.number().int().min(8000).max(48000),
  engine: z.string().trim().min(1).max(64).optional(),
  interface_path: z.string().max(200).refine(isWebConversation, 'must be a web conversation (webui/<session_id>)').optional(),
});
export type LiveConfigFrame = z.infer<typeof LiveConfigFrameSchema>;

/** Server → client JSON events; synthesised audio follows an `audio` event as one binary frame. */
export type LiveServerMessage =
  | { type: 'ready'; session_id: string; sample_rate: number; engine: string }
  | { type: 'partial' | 'final'; text: string }
  | { type: 'vad'; signal: 'speech_start' | 'speech_end' }
  | { type: 'audio'; text: string | null; audio_duration_s: unknown; url: unknown; lipsync: unknown }
  | { type: 'answer'; text: string }
  | { type: 'error'; detail: string };

export const BAD_CONFIG_CLOSE = 4400;
const POLICY_VIOLATION = 1008;
const CONFIG_TIMEOUT_MS = 10_000;
/** Text frames that are not audio, tolerated (each answered with an error) before the socket is closed. */
const MAX_GARBAGE = 3;
/** Audio may arrive faster than real time (a recording), but not without bound: a 30 s burst, then 8x. */
const BURST_SECONDS = 30;
const SUSTAINED_SPEED = 8;

/** Seconds of audio a client may send: a bucket refilled at SUSTAINED_SPEED seconds per second. */
class AudioBudget {
  private seconds = BURST_SECONDS;
  private at: number;

  constructor(
    private readonly bytesPerSecond: number,
    private readonly clock: Clock,
  ) {
    this.at = clock.now();
  }

  take(bytes: number): boolean {
    const now = this.clock.now();
    this.seconds = Math.min(BURST_SECONDS, this.seconds + ((now - this.at) / 1000) * SUSTAINED_SPEED);
    this.at = now;
    this.seconds -= bytes / this.bytesPerSecond;
    return this.seconds >= 0;
  }
}

const send = (socket: WebSocket, message: LiveServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));

/** Events back to the socket; `speechStarted` is the bound conversation's barge-in. Finals time the recogniser (`stt`). */
function sinkFor(socket: WebSocket, metrics: Metrics, speechStarted?: () => void): LiveSink {
  return {
    event(event: LiveEvent) {
      if (event.type === 'VAD' && event.vadSignal) {
        send(socket, { type: 'vad', signal: event.vadSignal });
        if (event.vadSignal === 'speech_start') speechStarted?.();
      } else if (event.type === 'TRANSCRIPT' && event.text) {
        send(socket, { type: event.isFinal ? 'final' : 'partial', text: event.text });
        const { sttS } = event.isFinal ? heardTiming(event.metadata) : {};
        if (sttS !== undefined) metrics.observeStage('stt', sttS);
      } else if (event.type === 'ERROR') send(socket, { type: 'error', detail: event.detail ?? 'live engine error' });
      else if (event.type === 'AUDIO' && event.audio && socket.readyState === socket.OPEN) {
        send(socket, {
          type: 'audio',
          text: event.text,
          audio_duration_s: event.metadata.audio_duration_s ?? null,
          url: event.metadata.url ?? null,
          lipsync: event.metadata.lipsync ?? null,
        });
        socket.send(event.audio, { binary: true });
      }
    },
    answer: (text) => send(socket, { type: 'answer', text }),
  };
}

function parseConfig(data: RawData, isBinary: boolean): { ok: true; frame: LiveConfigFrame } | { ok: false; detail: string } {
  if (isBinary) return { ok: false, detail: 'expected the JSON config frame {sample_rate, engine} before any audio' };
  let json: unknown;
  try {
    json = JSON.parse(data.toString());
  } catch {
    return { ok: false, detail: 'the config frame is not JSON' };
  }
  const parsed = LiveConfigFrameSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      detail: `invalid config frame: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'frame'}: ${issue.message}`).join('; ')}`,
    };
  return { ok: true, frame: parsed.data };
}

/**
 * WS /api/audio/stream: hello, then the config frame, then binary 16-bit mono PCM. Events `vad`,
 * `partial`, `final` (and `audio` + a binary WAV frame for spoken answers) come back. A bad config frame
 * (or an `interface_path` no window shows) gets an error event and close 4400; garbage and floods close
 * with 1008. A socket bound to a web conversation speaks into it: its answers go to the windows.
 */
export const audioStreamRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const logger = services.logger.child({ component: 'audio-stream' });
  const { live } = services.audio;
  const { clock } = services;

  app.get('/api/audio/stream', { websocket: true, config: { trust: 'hello' } }, (socket, request) => {
    const early: Array<[RawData, boolean]> = [];
    let state: 'config' | 'opening' | 'streaming' | 'closed' = 'config';
    let session: LiveSession | undefined;
    let binding: ReturnType<typeof webVoiceBinding> | undefined;
    let budget: AudioBudget | undefined;
    let garbage = 0;
    let configTimer: TimerHandle | undefined;
    const stopConfigTimer = () => configTimer !== undefined && clock.clearTimeout(configTimer);

    const refuse = (code: number, detail: string) => {
      send(socket, { type: 'error', detail });
      state = 'closed';
      socket.close(code, detail.slice(0, 120));
    };

    const configure = async (frame: LiveConfigFrame) => {
      state = 'opening';
      stopConfigTimer();
      const path = frame.interface_path;
      const chat: VoiceConversations | undefined = path === undefined ? undefined : webChatIfLoaded(services);
      if (path !== undefined && !chat?.shows(path)) return refuse(BAD_CONFIG_CLOSE, `no web chat window shows ${path}`);
      binding = chat && path !== undefined ? webVoiceBinding(chat, path) : undefined;
      try {
        session = await live.open({
          engine: frame.engine,
          sampleRate: frame.sample_rate,
          sink: sinkFor(socket, services.metrics, binding?.speechStarted),
          ...(binding ? { conversation: binding.conversation, minSpeechMs: binding.minSpeechMs, anticipate: binding.anticipate } : {}),
        });
      } catch (error) {
        const detail =
          error instanceof UnknownEngineError
            ? error.engine === 'disabled'
              ? 'Live is disabled (LIVE_CORTEX)'
              : error.message
            : 'the live engine could not start';
        if (!(error instanceof UnknownEngineError)) logger.warn({ err: error }, 'opening a live session failed');
        return refuse(BAD_CONFIG_CLOSE, detail);
      }
      if (socket.readyState !== socket.OPEN) return void session.close();
      state = 'streaming';
      budget = new AudioBudget(frame.sample_rate * 2, clock);
      send(socket, { type: 'ready', session_id: session.id, sample_rate: frame.sample_rate, engine: frame.engine ?? live.activeEngine() ?? '' });
      for (const [data, isBinary] of early.splice(0)) receive(data, isBinary);
    };

    const receive = (data: RawData, isBinary: boolean) => {
      if (state === 'config') {
        const parsed = parseConfig(data, isBinary);
        if (!parsed.ok) return refuse(BAD_CONFIG_CLOSE, parsed.detail);
        void configure(parsed.frame);
        return;
      }
      if (state === 'opening')
        return early.length < 256 ? void early.push([data, isBinary]) : refuse(POLICY_VIOLATION, 'audio is arriving faster than it can be processed');
      if (state !== 'streaming' || !session || !budget) return;
      const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      if (!isBinary || bytes.byteLength % 2 !== 0) {
        garbage += 1;
        if (garbage >= MAX_GARBAGE) return refuse(POLICY_VIOLATION, 'too many frames that are not 16-bit PCM');
        return send(socket, { type: 'error', detail: 'expected binary 16-bit mono PCM frames' });
      }
      if (!budget.take(bytes.byteLength) || !session.push(bytes)) refuse(POLICY_VIOLATION, 'audio is arriving faster than it can be processed');
    };

    socket.on('error', (error) => logger.debug({ err: error }, 'live socket error'));
    services.gate.admit(socket, request, () => {
      socket.on('message', (data: RawData, isBinary: boolean) => {
        try {
          receive(data, isBinary);
        } catch (error) {
          logger.error({ err: error }, 'handling a live frame failed');
        }
      });
      socket.on('close', () => {
        state = 'closed';
        stopConfigTimer();
        // Once the engine has had its say: an answer begun on an end candidate whose final never came is dropped.
        void session?.close().then(() => binding?.release());
      });
      configTimer = clock.setTimeout(() => state === 'config' && refuse(BAD_CONFIG_CLOSE, 'no config frame in time'), CONFIG_TIMEOUT_MS);
    });
  });
};
