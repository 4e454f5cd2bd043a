/**
 * The development-components flag. It lives in module memory on purpose: it survives the in-place
 * restart of `POST /api/system/restart` (which is how a toggle takes effect) but never a new process,
 * and it is never persisted.
 */
let devComponentsEnabled = false;

/** enable_dev_components: applies at the next (in-place) restart, when discovery runs again. */
export function enableDevComponents(enabled: boolean): void {
  devComponentsEnabled = enabled;
}

/** are_dev_components_enabled */
export function areDevComponentsEnabled(): boolean {
  return devComponentsEnabled;
}
