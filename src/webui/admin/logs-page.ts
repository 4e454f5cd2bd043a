/** Logs: the live stream of WS /logs (present when WEB_DEBUG=1) and the recent activity log. */
import { errorText, h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import { session } from '../net/session.ts';
import type { View } from '../view.ts';
import { loader } from './ui.ts';
import { formatDate } from './units.ts';

const MAX_LINES = 1000;
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** `GET /api/logs/info`: whether WS /logs runs, and WEB_DEBUG as saved now (it applies at the next start). */
interface LogsInfo {
  live: boolean;
  web_debug: boolean;
}

function format(line: string): string {
  try {
    const entry = JSON.parse(line) as { time?: number; level?: number; msg?: string; component?: string };
    const time = entry.time ? new Date(entry.time).toLocaleTimeString() : '';
    return `${time} ${LEVELS[entry.level ?? 30] ?? entry.level} ${entry.component ? `[${entry.component}] ` : ''}${entry.msg ?? line}`;
  } catch {
    return line;
  }
}

/** How to get the live log when the server has none, rather than a socket refused with a 404. */
function offHint({ web_debug }: LogsInfo): Array<string | Node> {
  const restart = ['restart Anima (“Restart now” on the ', h('a', { href: '#/components' }, 'Components'), ' page)'];
  return web_debug
    ? ['WEB_DEBUG is on but applies from the next start: ', ...restart, ' to see log lines here.']
    : [
        'The live log is off. To see log lines here, turn WEB_DEBUG on in ',
        h('a', { href: '#/config' }, 'Configuration'),
        ' (or set WEB_DEBUG=1 in .env) and ',
        ...restart,
        '.',
      ];
}

function liveLogs(output: HTMLElement, state: HTMLElement): () => void {
  let socket: WebSocket | undefined;
  let closed = false;
  void session().then(({ token }) => {
    if (closed) return;
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/logs`);
    socket.addEventListener('open', () => socket?.send(JSON.stringify({ type: 'hello', token })));
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      if (event.data.startsWith('{"type":"ready"')) {
        state.textContent = 'Live.';
        return;
      }
      output.append(`${format(event.data)}\n`);
      while (output.childNodes.length > MAX_LINES) output.firstChild?.remove();
      output.scrollTop = output.scrollHeight;
    });
    socket.addEventListener('close', () => {
      if (!closed) state.textContent = 'The live stream closed (Anima stopped or restarted): reload the page to follow it again.';
    });
  });
  return () => {
    closed = true;
    socket?.close();
  };
}

export const view: View = (root) => {
  const output = h('pre', { class: 'log-lines', 'aria-live': 'off', hidden: true });
  const state = h('p', { class: 'muted', role: 'status' }, 'Connecting…');
  const activity = h('div');
  root.append(h('section', { class: 'card' }, h('h2', {}, 'Live log'), state, output), h('section', { class: 'card' }, h('h2', {}, 'Activity'), activity));
  loader(
    activity,
    () => apiJson<{ entries: Array<{ id: number; created_at: string; kind: string; message: string }> }>('/api/history/activity?limit=50'),
    ({ entries }) => [
      entries.length === 0
        ? h('p', { class: 'muted' }, 'No activity yet.')
        : h(
            'table',
            {},
            h(
              'tbody',
              {},
              ...entries.map((entry) => h('tr', {}, h('td', {}, formatDate(entry.created_at)), h('td', {}, entry.kind), h('td', {}, entry.message))),
            ),
          ),
    ],
  );
  let left = false;
  let stop: (() => void) | undefined;
  apiJson<LogsInfo>('/api/logs/info')
    .then((info) => {
      if (left) return;
      if (!info.live) return state.replaceChildren(...offHint(info));
      output.hidden = false;
      stop = liveLogs(output, state);
    })
    .catch((error: unknown) => (state.textContent = `Could not tell whether the live log is on: ${errorText(error)}`));
  return () => {
    left = true;
    stop?.();
  };
};
