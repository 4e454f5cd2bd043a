/** About: version, uptime, ports, sessions and the machine, from GET /api/about. */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { loader } from './ui.ts';

function rows(value: unknown, prefix = ''): HTMLTableRowElement[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [h('tr', {}, h('th', {}, prefix), h('td', {}, Array.isArray(value) ? value.join(', ') : String(value)))];
  }
  return Object.entries(value).flatMap(([key, inner]) => rows(inner, prefix ? `${prefix}.${key}` : key));
}

export const view: View = (root) => {
  const body = h('div');
  root.append(body, h('p', {}, h('a', { href: '/api/docs' }, 'API documentation (OpenAPI)')));
  loader(
    body,
    () => apiJson<Record<string, unknown>>('/api/about'),
    (about) => [h('table', { class: 'card' }, h('tbody', {}, ...rows(about)))],
  );
};
