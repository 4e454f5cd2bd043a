import type { ConfigStore } from './store.ts';

/** The port variables of Anima's listeners: two listeners on one port means the second cannot start. */
export const LISTENER_PORTS = ['APP_WEBUI_HTTP_PORT', 'APP_WEBUI_HTTPS_PORT', 'COMPAT_API_SERVER_PORT'] as const;
export type ListenerPort = (typeof LISTENER_PORTS)[number];

function isListenerPort(key: string): key is ListenerPort {
  return (LISTENER_PORTS as readonly string[]).includes(key);
}

/**
 * The listener among `among` (other than `key`) already configured on `port`, if `key` took that port;
 * port 0 (any free port) never collides.
 */
export function collidingListener(config: ConfigStore, key: string, port: number, among: readonly ListenerPort[] = LISTENER_PORTS): ListenerPort | undefined {
  if (port === 0 || !isListenerPort(key)) return undefined;
  return among.find((other) => other !== key && config.get(other) === port);
}
