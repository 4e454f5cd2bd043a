import { describe, expect, it, vi } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../../src/realtime/socket-hub.ts';
import { openRawWebSocket } from '../helpers/raw-websocket.ts';
import { useTestApp } from '../helpers/services.ts';
import { openSocket } from '../helpers/sockets.ts';

/**
 * Issue 15, fault 5 (in part): a WebSocket that never reads. The body broadcasts large model frames to
 * two windows; one reads everything, the other has stopped reading (its TCP socket paused, so the
 * kernel's buffers fill and then the server's). The reader gets every frame; the other is cut off once
 * it is MAX_BUFFERED_BYTES behind.
 */
const FRAME_TEXT = 64 * 1024;
/** Far more than the bound plus what the kernel's buffers of both ends hold on loopback (a few MiB). */
const FRAMES = Math.ceil((4 * MAX_BUFFERED_BYTES + 32 * 1_048_576) / FRAME_TEXT);
const hashOf = (index: number) => `sha256:${String(index).padStart(64, '0')}`;
type Frame = { type: string; hash?: string };

describe('a WebSocket that never reads', () => {
  const subject = useTestApp({ listen: true });

  it('is dropped once it is too far behind, while a window that reads gets every frame', async () => {
    const { services } = subject.harness;
    const hello = () => JSON.stringify({ type: 'hello', token: services.trust.tokens.issue().token, has_assets: [] });
    const reader = await openSocket(`ws://127.0.0.1:${subject.ports.web}/ws`);
    reader.socket.send(hello());
    await reader.next((message) => (message as Frame).type === 'vrm_face');
    const stalled = await openRawWebSocket(subject.ports.web, '/ws');
    await stalled.frame(hello(), false);
    // Once admitted it stops reading: the kernel's buffers fill, then the server's.
    stalled.socket.pause();
    await vi.waitFor(() => expect(services.gate.openCount()).toBe(2));

    for (let sent = 0; sent < FRAMES; sent += 1) {
      services.body.setVrmModel(`/vrm/${sent}.vrm`, 'n'.repeat(FRAME_TEXT), hashOf(sent));
      // The reader's frames flow out between broadcasts, as they would between body events.
      if (sent % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await reader.next((message) => (message as Frame).hash === hashOf(FRAMES - 1), 30_000);
    expect(reader.messages.filter((message) => (message as Frame).hash?.startsWith('sha256:0'))).toHaveLength(FRAMES);
    expect(reader.socket.readyState).toBe(reader.socket.OPEN);

    // Reading again, the stalled window finds what the kernel held, then the end of the connection the
    // server cut: far less than was broadcast.
    let received = 0;
    stalled.socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    stalled.socket.resume();
    await stalled.ended;
    expect(received).toBeLessThan((FRAMES * FRAME_TEXT) / 2);
  });
});
