/**
 * Configuration: every variable from GET /api/config in collapsible sections of its group, with the labels
 * and help of the schema, a search, and one save per section that shows its changes first.
 */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import type { View } from '../view.ts';
import type { ConfigEntry } from './config/entry.ts';
import { type ConfigSection, configSection } from './config/section.ts';
import { loader } from './ui.ts';

/** Saved entries the server set aside, at the top: each otherwise hides in its section further down. */
function ignoredSummary(entries: ConfigEntry[]): HTMLElement[] {
  const ignored = entries.filter((entry) => entry.ignored);
  if (ignored.length === 0) return [];
  return [
    h(
      'div',
      { class: 'warning', role: 'alert', 'data-ignored': ignored.map((entry) => entry.key).join(' ') },
      h('strong', {}, 'Saved settings not in use'),
      h('ul', {}, ...ignored.map((entry) => h('li', {}, h('code', {}, entry.key), `: ${entry.ignored?.reason}`))),
    ),
  ];
}

/** The entries of each group, in the schema's order. */
function groups(entries: ConfigEntry[]): ConfigEntry[][] {
  const grouped = new Map<string, ConfigEntry[]>();
  for (const entry of entries) grouped.set(entry.group, [...(grouped.get(entry.group) ?? []), entry]);
  return [...grouped.values()];
}

export const view: View = (root) => {
  const search = h('input', { type: 'search', placeholder: 'Search settings…', 'aria-label': 'Search settings' });
  const notices = h('div');
  const body = h('div', { class: 'config-sections' });
  const nothing = h('p', { class: 'muted', hidden: true }, 'No setting matches the search.');
  root.append(
    h('p', { class: 'muted' }, 'Each section saves its changes together. A setting marked “Restart required” is used from the next restart.'),
    h('p', { class: 'config-search' }, search),
    notices,
    body,
    nothing,
  );

  let sections: ConfigSection[] = [];
  const applySearch = () => {
    const shown = sections.reduce((sum, section) => sum + section.filter(search.value), 0);
    nothing.hidden = shown > 0 || sections.length === 0;
  };
  const load = async () => {
    const { entries } = await apiJson<{ entries: ConfigEntry[] }>('/api/config');
    notices.replaceChildren(...ignoredSummary(entries));
    return entries;
  };
  loader(body, load, (entries) => {
    sections = groups(entries).map((members) => {
      const [first] = members as [ConfigEntry];
      return configSection(first.group_label, first.group, members, load);
    });
    applySearch();
    return sections.map((section) => section.element);
  });
  search.addEventListener('input', applySearch);
};
