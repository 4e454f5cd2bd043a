import { connect } from 'node:net';

export interface RawRequest {
  method?: string;
  /** Sent byte for byte: percent-encodings, doubled slashes and dot segments reach the server as written. */
  path: string;
  /** `host` defaults to 127.0.0.1:<port>; pass `host: ''` to send none. */
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body's bytes (de-chunked), for binary answers. */
  bytes: Buffer;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString(), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** One HTTP/1.1 request over a plain TCP socket, read until the server closes it. */
export function rawRequest(port: number, request: RawRequest): Promise<RawResponse> {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: 'close', ...request.headers };
  if (body.length > 0) headers['content-length'] = String(body.length);
  const head = [
    `${request.method ?? 'GET'} ${request.path} HTTP/1.1`,
    ...Object.entries(headers)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = all.subarray(split + 4);
      const bytes = parsed['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest;
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: bytes.toString('utf8'), bytes });
    });
    socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
  });
}
