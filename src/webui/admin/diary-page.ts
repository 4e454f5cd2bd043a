/** Diary: entries newest first; archive, unarchive, delete archived. */
import { h } from '../dom.ts';
import { apiJson, postJson } from '../net/api.ts';
import type { DiaryEntry } from '../../db/schema.ts';
import type { View } from '../view.ts';
import { actionButton, formatDate, loader, toast } from './ui.ts';

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
  root.append(
    h(
      'div',
      { class: 'row' },
      act('Archive selected', '/api/diary/archive'),
      act('Unarchive selected', '/api/diary/unarchive'),
      act('Delete selected archived', '/api/diary/archive', 'DELETE'),
    ),
    body,
  );
  const reload = loader(
    body,
    () => apiJson<{ entries: DiaryEntry[] }>('/api/diary'),
    ({ entries }) =>
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
