import { connect, type Socket } from 'node:net';
import { binaryFbx } from './upload-files.ts';

const BOUNDARY = '----anima-unfinished-boundary';

/**
 * A multipart upload over a plain socket that declares `totalBytes` of file (an FBX by its header) but
 * sends only half of them and then nothing more: a client killed or stalled mid-upload.
 */
export function unfinishedUpload(web: URL, token: string, path: string, fields: Record<string, string>, name: string, totalBytes: number): Socket {
  const fieldParts = Object.entries(fields).map(([key, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`);
  const head = Buffer.from(
    `${fieldParts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const socket = connect({ host: web.hostname, port: Number(web.port) });
  socket.on('error', () => undefined);
  socket.write(
    [
      `POST ${path} HTTP/1.1`,
      `host: ${web.host}`,
      `authorization: Bearer ${token}`,
      `content-type: multipart/form-data; boundary=${BOUNDARY}`,
      `content-length: ${head.length + totalBytes + tail.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(Buffer.concat([head, binaryFbx()]));
  const chunk = Buffer.alloc(1024 * 1024, 7);
  for (let sent = 0; sent < totalBytes / 2; sent += chunk.length) socket.write(chunk);
  return socket;
}
