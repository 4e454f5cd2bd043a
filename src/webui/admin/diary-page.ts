/** Diary: entries newest first; archive, unarchive, delete archived (each button shown while it has entries to act on). */
import { h } from '../dom.ts';
import { apiJson, postJson } from '../net/api.ts';
import type { DiaryEntry } from '../../db/schema.ts';
import type { View } from '../view.ts';
import { actionButton, loader, toast } from './ui.ts';
import { formatDate } from './units.ts';

export const view: View = (root) => {
  const selected = new Set<number>();
  const body = h('div');
  const act = (label: string, path: string, method = 'POST') =>
    actionButton(label, async () => {
      if (selected.size === 0) return toast('Select entries first', true);
      if (method === 'DELETE' && !confirm(`Delete the selected archived entries for good?`)) return;
      await postJson(path, { ids: [...selected] }, method);
      selected.clear();
      await reload();
    });
  const archive = act('Archive selected', '/api/diary/archive');
  const unarchive = act('Unarchive selected', '/api/diary/unarchive');
  const remove = act('Delete selected archived', '/api/diary/archive', 'DELETE');
  // Hidden until there are entries they can act on: bulk buttons over an empty diary only puzzle.
  const actions = h('div', { class: 'row', hidden: true }, archive, unarchive, remove);
  const showActions = (entries: DiaryEntry[]) => {
    const archived = entries.some((entry) => entry.archived);
    archive.hidden = !entries.some((entry) => !entry.archived);
    unarchive.hidden = !archived;
    remove.hidden = !archived;
    actions.hidden = entries.length === 0;
  };
  root.append(actions, body);
  const reload = loader(
    body,
    async () => {
      const { entries } = await apiJson<{ entries: DiaryEntry[] }>('/api/diary');
      showActions(entries);
      return entries;
    },
    (entries) =>
      entries.length === 0
        ? [h('p', { class: 'muted' }, 'The diary is empty.')]
        : entries.map((entry) => {
            const box = h('input', { type: 'checkbox', 'aria-label': `Select entry ${entry.id}`, checked: selected.has(entry.id) });
            box.addEventListener('change', () => (box.checked ? selected.add(entry.id) : selected.delete(entry.id)));
            return h(
              'article',
              { class: 'card', 'data-id': String(entry.id) },
              h(
                'div',
                { class: 'row' },
                box,
                h('time', { datetime: entry.created_at }, formatDate(entry.created_at)),
                entry.archived && h('span', { class: 'badge' }, 'archived'),
                ...entry.tags.map((tag) => h('span', { class: 'badge' }, tag)),
              ),
              h('p', { style: 'white-space: pre-wrap' }, entry.text),
              entry.interface_path && h('p', { class: 'muted' }, entry.interface_path),
            );
          }),
  );
};
