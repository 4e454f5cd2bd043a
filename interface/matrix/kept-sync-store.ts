import { MemoryStore, type ISyncResponse } from 'matrix-js-sdk';
import type { SessionFile } from './session-file.ts';

/**
 * The SDK's memory store, plus the sync token in the session file: after a restart the first /sync asks
 * only for what happened since the last one handled, so old events are neither missed nor answered twice.
 * The SDK calls `setSyncData` once the events of a sync have been handled.
 */
export class KeptSyncStore extends MemoryStore {
  constructor(
    private readonly file: SessionFile,
    private readonly failed: (error: unknown) => void,
  ) {
    super();
  }

  override getSavedSyncToken(): Promise<string | null> {
    return Promise.resolve(this.file.session?.syncToken ?? null);
  }

  override async setSyncData(data: ISyncResponse): Promise<void> {
    await this.file.update({ syncToken: data.next_batch }).catch(this.failed);
  }
}
