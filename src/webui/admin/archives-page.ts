/** Chat archives: archive the current chat, rename, download, restore, delete. */
import { h } from '../dom.ts';
import { apiJson, postJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { actionButton, download, loader, toast } from './ui.ts';
import { formatDate } from './units.ts';

interface Archive {
  archive_id: string;
  name: string;
  created_at: string;
  message_count: number;
  interface_path: string;
}

export const view: View = (root) => {
  const body = h('div');
  const path = (id: string) => `/api/chat/archives/${encodeURIComponent(id)}`;
  root.append(
    h(
      'p',
      {},
      actionButton('Archive the current chat', async () => {
        if (!confirm('Archive the current conversation? The chat is cleared.')) return;
        const result = await postJson<{ archive_id: string }>('/api/chat/archive', {});
        toast(`Archived as ${result.archive_id}`);
        await reload();
      }),
    ),
    body,
  );
  const row = (archive: Archive) => {
    const name = h('input', { type: 'text', value: archive.name, 'aria-label': `Name of ${archive.archive_id}` });
    return h(
      'article',
      { class: 'card', 'data-id': archive.archive_id },
      h(
        'div',
        { class: 'row' },
        name,
        actionButton('Rename', async () => {
          await postJson(`${path(archive.archive_id)}/rename`, { name: name.value.trim() });
          toast('Renamed');
          await reload();
        }),
      ),
      h('p', { class: 'muted' }, `${formatDate(archive.created_at)} · ${archive.message_count} messages · ${archive.interface_path}`),
      h(
        'div',
        { class: 'row' },
        actionButton('Download', () => download(path(archive.archive_id), `${archive.archive_id}.json`)),
        actionButton('Restore', async () => {
          if (!confirm(`Restore "${archive.name}"? The current chat is archived first.`)) return;
          const result = await postJson<{ restored: number }>('/api/chat/restore', { archive_id: archive.archive_id });
          toast(`Restored ${result.restored} messages`);
          await reload();
        }),
        actionButton(
          'Delete',
          async () => {
            if (!confirm(`Delete "${archive.name}" for good?`)) return;
            await apiJson(path(archive.archive_id), { method: 'DELETE' });
            await reload();
          },
          'danger',
        ),
      ),
    );
  };
  const reload = loader(
    body,
    () => apiJson<{ archives: Archive[] }>('/api/chat/archives'),
    ({ archives }) => (archives.length === 0 ? [h('p', { class: 'muted' }, 'No archives yet.')] : archives.map(row)),
  );
};
