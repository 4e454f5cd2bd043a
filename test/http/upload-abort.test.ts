import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';
import { copyFixtureSkins } from '../helpers/upload-files.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { stack?: string };
}

const ERROR = 50;
const BOUNDARY = 'anima-test-boundary';
const API_KEY = 'upload-abort-test-key';

describe('a client that goes away mid-upload', () => {
  let skins: string;
  const lines: LogLine[] = [];
  /** Resolves with the first log line, logged from now on, that passes the test. */
  let awaited: { test: (line: LogLine) => boolean; resolve: (line: LogLine) => void } | undefined;
  const nextLine = (test: (line: LogLine) => boolean) => new Promise<LogLine>((resolve) => (awaited = { test, resolve }));

  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        if (awaited?.test(line)) awaited.resolve(line);
      }
      done();
    },
  });

  // Before useTestApp (after-hooks run in reverse), so the copy goes once the app has closed.
  afterEach(async () => {
    await rm(skins, { recursive: true, force: true });
  });
  const subject = useTestApp({ startInTest: true, environment: { APP_API_KEY: API_KEY }, logLevel: 'debug', logDestination: sink });

  it('is logged without error level or stack, while a real server fault still is an error', async () => {
    skins = await copyFixtureSkins();
    const app = await subject.start({ environment: { SKINS_DIR: skins } });
    app.get('/api/broken', async () => {
      throw new Error('the disk is on fire');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;

    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const head = [
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="state"',
      '',
      'think',
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="file"; filename="Cut.fbx"',
      'Content-Type: application/octet-stream',
      '',
      '',
    ].join('\r\n');
    // Request lines are not logged: the request's first line is the multipart parser's, once it reads the body.
    const reading = nextLine((line) => line.reqId !== undefined);
    socket.write(
      `POST /api/animations/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-API-Key: ${API_KEY}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 1000000\r\n\r\n${head}${'x'.repeat(64 * 1024)}`,
    );
    await reading;
    // Whatever the server makes of the cut request is the next line above debug for that request.
    const verdict = nextLine((line) => line.reqId !== undefined && line.level > 20);
    socket.destroy();
    const aborted = await verdict;
    expect(aborted.level).toBeLessThan(ERROR);
    expect(aborted.err).toBeUndefined();
    expect(JSON.stringify(aborted)).not.toContain('    at ');

    const response = await fetch(`http://127.0.0.1:${port}/api/broken`, { headers: { 'x-api-key': API_KEY } });
    expect(response.status).toBe(500);
    const fault = lines.find((line) => line.msg === 'request failed');
    expect(fault).toMatchObject({ level: ERROR, err: { stack: expect.stringContaining('the disk is on fire') } });
    expect(lines.filter((line) => line.level >= ERROR)).toEqual([fault]);
  });
});
