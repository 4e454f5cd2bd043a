/** Configuration: every variable from GET /api/config, grouped, validated before saving, secrets masked. */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { type ConfigEntry, configField } from './config-fields.ts';
import { languageOverridesEditor } from './language-overrides.ts';
import { loader } from './ui.ts';

/** Saved entries the server set aside, at the top: each otherwise hides in its group further down. */
function ignoredSummary(entries: ConfigEntry[]): HTMLElement[] {
  const ignored = entries.flatMap((entry) => (entry.ignored ? [{ key: entry.key, reason: entry.ignored.reason }] : []));
  if (ignored.length === 0) return [];
  return [
    h(
      'div',
      { class: 'warning', role: 'alert', 'data-ignored': ignored.map((entry) => entry.key).join(' ') },
      h('strong', {}, 'Saved settings not in use'),
      h('ul', {}, ...ignored.map((entry) => h('li', {}, h('code', {}, entry.key), `: ${entry.reason}`))),
    ),
  ];
}

function groups(entries: ConfigEntry[]): Map<string, ConfigEntry[]> {
  const grouped = new Map<string, ConfigEntry[]>();
  for (const entry of entries) grouped.set(entry.group, [...(grouped.get(entry.group) ?? []), entry]);
  return grouped;
}

export const view: View = (root) => {
  const filter = h('input', { type: 'search', placeholder: 'Filter variables…', 'aria-label': 'Filter variables' });
  const body = h('div');
  root.append(h('p', {}, filter), body);
  const reload: () => Promise<void> = loader(
    body,
    () => apiJson<{ entries: ConfigEntry[] }>('/api/config'),
    ({ entries }) => [
      ...ignoredSummary(entries),
      ...[...groups(entries)].map(([group, members]) =>
        h(
          'details',
          { class: 'card', open: true, 'data-group': group },
          h('summary', {}, h('strong', {}, group), ` (${members.length})`),
          ...members.map((entry) =>
            entry.key === 'VOX_LANGUAGE_OVERRIDES'
              ? h(
                  'div',
                  {},
                  configField(entry, () => reload()),
                  languageOverridesEditor(entry.value, () => reload()),
                )
              : configField(entry, () => reload()),
          ),
        ),
      ),
    ],
  );
  filter.addEventListener('input', () => {
    const needle = filter.value.trim().toUpperCase();
    for (const field of body.querySelectorAll<HTMLElement>('.field')) field.hidden = needle !== '' && !(field.dataset.key ?? '').includes(needle);
  });
};
