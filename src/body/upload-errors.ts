/** Why an upload, a promotion or a custom model was refused; the HTTP layer maps each to its status. */
export type UploadRefusal = 'invalid' | 'unsupported' | 'not_found' | 'disabled' | 'conflict';

export class UploadError extends Error {
  constructor(
    readonly refusal: UploadRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** `upload_id`s are 128 random bits in lower-case hex: URL-safe, and a single harmless path segment. */
export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

export function assertUploadId(id: string): void {
  if (!UPLOAD_ID_PATTERN.test(id)) throw new UploadError('invalid', 'upload_id must be 32 lower-case hex digits');
}
