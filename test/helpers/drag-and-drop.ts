/**
 * A real drop in the page: a DataTransfer holding the files, dispatched as dragover then drop on the
 * target, as a browser does when a user drags files from their desktop onto it.
 */
import type { Locator } from 'playwright-core';

export interface DroppedFile {
  name: string;
  bytes: Buffer;
}

export async function dropFiles(target: Locator, files: DroppedFile[]): Promise<void> {
  const encoded = JSON.stringify(files.map((file) => ({ name: file.name, base64: file.bytes.toString('base64') })));
  // A string, not a function: the page's types are not this project's (its type check has no DOM).
  const dataTransfer = await target.page().evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const { name, base64 } of ${encoded}) {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], name));
    }
    return transfer;
  })()`);
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}
