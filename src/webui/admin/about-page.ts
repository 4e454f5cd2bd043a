/** About: version, uptime, ports, sessions and the machine, from GET /api/about, in words and units. */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { aboutLabel, formatAboutValue } from './about-format.ts';
import { loader } from './ui.ts';

type Fields = Record<string, unknown>;

const isGroup = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

function table(fields: [string, unknown][]): HTMLTableElement {
  return h(
    'table',
    { class: 'facts' },
    h('tbody', {}, ...fields.map(([key, value]) => h('tr', { 'data-key': key }, h('th', {}, aboutLabel(key)), h('td', {}, formatAboutValue(key, value))))),
  );
}

/** The top-level figures first, then one titled table per group (ports, database, system). */
function sections(about: Fields): HTMLElement[] {
  const entries = Object.entries(about);
  const plain = entries.filter(([, value]) => !isGroup(value));
  const groups = entries.filter((entry): entry is [string, Fields] => isGroup(entry[1]));
  return [
    h('section', { class: 'card' }, table(plain)),
    ...groups.map(([key, group]) => h('section', { class: 'card' }, h('h2', {}, aboutLabel(key)), table(Object.entries(group)))),
  ];
}

export const view: View = (root) => {
  const body = h('div');
  root.append(body, h('p', {}, h('a', { href: '/api/docs' }, 'API documentation (OpenAPI)')));
  loader(body, () => apiJson<Fields>('/api/about'), sections);
};
