/**
 * WS /api/audio/stream for the microphone: the hello with the page's session token (as on /ws), the
 * config frame naming this window's conversation, then binary PCM. Its events (vad, partial, final,
 * error) go to the listener; the answer itself comes on /ws as chat and speech.
 */
import { session } from '../net/session.ts';

export type AudioSocketEvent =
  | { type: 'ready' }
  | { type: 'partial' | 'final'; text: string }
  | { type: 'vad'; signal: 'speech_start' | 'speech_end' }
  | { type: 'error'; detail: string };

export interface AudioSocketHooks {
  onEvent(event: AudioSocketEvent): void;
  onClose(): void;
}

/** Audio captured before the socket opens is kept (about 5 s of 20 ms chunks), so the first words are not lost. */
const MAX_EARLY_CHUNKS = 250;

export class AudioSocket {
  private readonly early: ArrayBuffer[] = [];

  private constructor(private readonly socket: WebSocket) {}

  static async open(config: { sample_rate: number; interface_path: string }, hooks: AudioSocketHooks): Promise<AudioSocket> {
    const { token } = await session();
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/api/audio/stream`);
    socket.binaryType = 'arraybuffer';
    const opened = new AudioSocket(socket);
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ type: 'hello', token }));
      socket.send(JSON.stringify(config));
      for (const pcm of opened.early.splice(0)) socket.send(pcm);
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return; // spoken answers come on /ws for a web conversation
      try {
        hooks.onEvent(JSON.parse(event.data) as AudioSocketEvent);
      } catch {
        // not JSON: nothing the page can show
      }
    });
    socket.addEventListener('close', () => hooks.onClose());
    return opened;
  }

  send(pcm: ArrayBuffer): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(pcm);
    else if (this.socket.readyState === WebSocket.CONNECTING && this.early.length < MAX_EARLY_CHUNKS) this.early.push(pcm);
  }

  close(): void {
    this.socket.close(1000);
  }
}
