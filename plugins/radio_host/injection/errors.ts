/** What went wrong with a broadcast: the streamer login, another broadcaster, the network, or the audio. */
export type WebcastErrorKind = 'auth' | 'busy' | 'connect' | 'encode';

/** A banter injection that failed; `kind` says what the station owner has to fix. */
export class WebcastError extends Error {
  override readonly name = 'WebcastError';

  constructor(
    readonly kind: WebcastErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
