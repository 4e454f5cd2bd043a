import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A WebSocket client that obeys nothing: it upgrades by hand and writes frames whatever the server says,
 * the way a hostile client ignores a close. Frames carry a zero mask, which leaves the payload as it is.
 */
export interface RawWebSocket {
  socket: Socket;
  /** The upgrade's status code (101 when it upgraded). */
  status: number;
  /** Resolves once the server ended or destroyed the connection. */
  ended: Promise<void>;
  /** Writes one frame; resolves when the kernel took it, rejects once the connection is gone. */
  frame(payload: Buffer | string, binary?: boolean): Promise<void>;
}

function encodeFrame(payload: Buffer, binary: boolean): Buffer {
  const opcode = binary ? 0x2 : 0x1;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([0x80 | opcode, 0x80 | payload.length]);
  else if (payload.length < 65_536) {
    header = Buffer.alloc(4);
    header.writeUInt8(0x80 | opcode, 0);
    header.writeUInt8(0x80 | 126, 1);
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(0x80 | opcode, 0);
    header.writeUInt8(0x80 | 127, 1);
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([header, Buffer.alloc(4), payload]);
}

/** `localAddress` (another loopback address, 127.0.0.2 and on) makes the client count as another address. */
export function openRawWebSocket(port: number, path: string, headers: Record<string, string> = {}, localAddress?: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) });
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      // Whatever the server sends from now on is read and dropped, as a client that ignores it would.
      socket.on('data', () => undefined);
      const status = Number(head.subarray(0, end).toString('latin1').split(' ')[1]);
      resolve({
        socket,
        status,
        ended,
        frame: (payload, binary = true) =>
          new Promise((written, failed) => {
            if (socket.destroyed) return failed(new Error('connection gone'));
            socket.write(encodeFrame(Buffer.from(payload), binary), (error) => (error ? failed(error) : written()));
          }),
      });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before the upgrade answer')));
    const lines = [
      `GET ${path} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      'upgrade: websocket',
      'connection: Upgrade',
      'sec-websocket-version: 13',
      `sec-websocket-key: ${randomBytes(16).toString('base64')}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
