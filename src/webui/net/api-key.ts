/** The API key a remote browser was asked for once, kept in localStorage. */
const KEY_STORAGE = 'anima.api_key';

export function storedKey(): string | null {
  return localStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string): void {
  localStorage.setItem(KEY_STORAGE, key);
}

/** The stored key as a header, for requests that must not prompt (they run beside one that may). */
export function keyHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { 'X-API-Key': key } : {};
}
