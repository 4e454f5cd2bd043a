import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { FileTooLargeError, writeUpload } from '../system/upload-files.ts';
import { UploadError, type UploadRefusal } from '../body/upload-errors.ts';
import { AppError, badRequest, type ErrorCode } from '../errors.ts';

/** A side file (a descriptor) is read into memory; anything bigger than this is not one. */
const SIDE_FILE_MAX_BYTES = 64 * 1024;

export interface ReceivedUpload {
  /** The main file, streamed to a staging path that the caller moves away or removes. */
  file: { staged: string; filename: string } | undefined;
  /** Text fields, and side files as text, by field name. */
  fields: Map<string, string>;
}

export interface ReceiveOptions {
  /** The field that carries the main file. */
  fileField: string;
  /** Fields that may also arrive as small files (read as UTF-8 text). */
  sideFiles?: string[];
  staging: () => Promise<string>;
  maxBytes: number;
  /** A client that sends nothing for this long is cut off (APP_UPLOAD_IDLE_TIMEOUT_S). */
  idleTimeoutMs: number;
}

async function readSmall(stream: AsyncIterable<Buffer>, field: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > SIDE_FILE_MAX_BYTES) throw badRequest(`The "${field}" file is larger than ${SIDE_FILE_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a multipart request whose main file may come before or after its fields. The file goes
 * through `writeUpload` (partial file, renamed when complete), so an over-limit upload (413) or any
 * failure here leaves nothing on disk.
 */
export async function receiveUpload(request: FastifyRequest, options: ReceiveOptions): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', `Expected multipart/form-data with a "${options.fileField}" field`);
  const received: ReceivedUpload = { file: undefined, fields: new Map() };
  // An upload that stops halfway would hold its staged file and its socket for good: Node's socket idle
  // timer cuts it off, which fails the read below and removes the staged file.
  // A request injected in-process has no network socket, and nothing to time out.
  const socket = typeof request.raw.socket.setTimeout === 'function' ? request.raw.socket : undefined;
  const stalled = () => request.raw.destroy(new Error(`no data for ${options.idleTimeoutMs} ms (APP_UPLOAD_IDLE_TIMEOUT_S)`));
  socket?.setTimeout(options.idleTimeoutMs, stalled);
  try {
    for await (const part of request.parts({ limits: { fileSize: options.maxBytes, files: 2, fields: 20 } })) {
      if (part.type === 'field') {
        received.fields.set(part.fieldname, String(part.value));
      } else if (part.fieldname === options.fileField && !received.file) {
        const staged = await options.staging();
        received.file = { staged, filename: part.filename };
        await writeUpload(part.file, staged);
      } else if (options.sideFiles?.includes(part.fieldname)) {
        received.fields.set(part.fieldname, await readSmall(part.file, part.fieldname));
      } else {
        throw badRequest(`Unexpected file field "${part.fieldname}"`);
      }
    }
  } catch (error) {
    await discardUpload(received);
    if (error instanceof FileTooLargeError) throw new AppError(413, 'payload_too_large', 'File exceeds APP_UPLOAD_MAX_BYTES');
    throw error;
  } finally {
    socket?.setTimeout(0);
    socket?.off('timeout', stalled);
  }
  return received;
}

/** Removes the staged file unless it was moved away already. */
export async function discardUpload(received: ReceivedUpload): Promise<void> {
  if (received.file) await rm(received.file.staged, { force: true });
}

const REFUSALS: Record<UploadRefusal, { status: number; code: ErrorCode }> = {
  invalid: { status: 400, code: 'invalid_request' },
  unsupported: { status: 415, code: 'unsupported_media_type' },
  not_found: { status: 404, code: 'not_found' },
  disabled: { status: 403, code: 'promotion_disabled' },
  conflict: { status: 409, code: 'conflict' },
};

/** Runs an upload operation of the body; its refusals become the contract's client errors. */
export async function refusalsAsHttp<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const { status, code } = REFUSALS[error.refusal];
    throw new AppError(status, code, error.message);
  }
}
