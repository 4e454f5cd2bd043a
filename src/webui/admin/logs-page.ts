/** Logs: the live stream of WS /logs (present when WEB_DEBUG=1) and the recent activity log. */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import { session } from '../net/session.ts';
import type { View } from '../view.ts';
import { formatDate, loader } from './ui.ts';

const MAX_LINES = 1000;
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

function format(line: string): string {
  try {
    const entry = JSON.parse(line) as { time?: number; level?: number; msg?: string; component?: string };
    const time = entry.time ? new Date(entry.time).toLocaleTimeString() : '';
    return `${time} ${LEVELS[entry.level ?? 30] ?? entry.level} ${entry.component ? `[${entry.component}] ` : ''}${entry.msg ?? line}`;
  } catch {
    return line;
  }
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
      if (!closed) state.textContent = 'The live stream is off: set WEB_DEBUG=1 (Configuration) and restart to see logs here.';
    });
  });
  return () => {
    closed = true;
    socket?.close();
  };
}

export const view: View = (root) => {
  const output = h('pre', { class: 'log-lines', 'aria-live': 'off' });
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
  return liveLogs(output, state);
};
