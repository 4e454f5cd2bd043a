/**
 * One group of variables as a collapsible section: its fields, the changes they would make (shown before
 * anything is sent) and one Save that sends them all.
 */
import { errorText, h } from '../../dom.ts';
import { ApiError, apiFetch, postJson } from '../../net/api.ts';
import { actionButton, toast } from '../ui.ts';
import { type Change, describeChange } from './diff.ts';
import { type ConfigEntry, matches } from './entry.ts';
import { type ConfigField, configField } from './field.ts';

export interface ConfigSection {
  readonly element: HTMLElement;
  /** Shows only the fields a search finds, and the section only when it has some; returns how many. */
  filter(needle: string): number;
}

/** A new value through `POST /api/config`; a file through its upload route, which saves its path too. */
async function send(key: string, change: Change): Promise<void> {
  if (change.kind !== 'upload') {
    await postJson('/api/config', { key, value: change.kind === 'set' ? change.value : null });
    return;
  }
  const form = new FormData();
  form.append('file', change.file);
  await apiFetch(`/api/config/${encodeURIComponent(key)}/upload`, { method: 'POST', body: form });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `reload` fetches every entry again, so that the saved fields show what the server now holds. */
export function configSection(label: string, group: string, entries: ConfigEntry[], reload: () => Promise<ConfigEntry[]>): ConfigSection {
  let needle = '';
  let openBeforeSearch: boolean | undefined;
  const count = h('span', { class: 'badge count' });
  const unsaved = h('span', { class: 'badge unsaved', hidden: true });
  const diff = h('ul', { class: 'diff' });
  const save = actionButton('Save', () => saveAll());
  const discard = h('button', { type: 'button' }, 'Discard');
  const changes = h(
    'div',
    { class: 'config-changes', hidden: true },
    h('p', {}, h('strong', {}, 'Changes to save')),
    diff,
    h('div', { class: 'row' }, save, discard),
  );

  const update = () => {
    const lines = fields.flatMap((field) => {
      const change = field.change();
      return change ? [h('li', {}, h('code', {}, describeChange(field.entry, change)))] : [];
    });
    diff.replaceChildren(...lines);
    changes.hidden = lines.length === 0;
    unsaved.hidden = lines.length === 0;
    unsaved.textContent = `${lines.length} unsaved`;
    save.textContent = `Save ${plural(lines.length, 'change')}`;
  };
  let fields: ConfigField[] = entries.map((entry) => configField(entry, update));
  const list = h('div', { class: 'fields' }, ...fields.map((field) => field.element));

  const element = h(
    'details',
    // A section holding a saved value that is not in use opens by itself: its warning is beside the field.
    { class: 'card config-section', 'data-group': group, open: entries.some((entry) => entry.ignored) },
    h('summary', {}, h('span', { class: 'section-title' }, label), count, unsaved),
    list,
    changes,
  );

  const filter = (next: string): number => {
    needle = next.trim();
    if (needle !== '') {
      openBeforeSearch ??= element.open;
      element.open = true;
    } else if (openBeforeSearch !== undefined) {
      element.open = openBeforeSearch;
      openBeforeSearch = undefined;
    }
    let visible = 0;
    for (const field of fields) {
      field.element.hidden = !matches(field.entry, needle);
      if (!field.element.hidden) visible += 1;
    }
    count.textContent = String(visible);
    count.title = `${plural(visible, 'setting')} shown`;
    element.hidden = visible === 0;
    return visible;
  };

  /** Builds the fields of these entries afresh; every other field keeps what was typed in it. */
  const rebuild = (entries: ConfigEntry[]) => {
    const fresh = new Map(entries.map((entry) => [entry.key, entry]));
    fields = fields.map((field) => {
      const entry = fresh.get(field.entry.key);
      if (!entry) return field;
      const replacement = configField(entry, update);
      field.element.replaceWith(replacement.element);
      return replacement;
    });
    filter(needle);
    update();
  };

  const saveAll = async () => {
    const checked = fields.flatMap((field) => {
      const ready = field.ready();
      return ready ? [{ field, ready }] : [];
    });
    let invalid = false;
    for (const { field, ready } of checked) {
      if ('issue' in ready) {
        field.showIssue(ready.issue);
        invalid = true;
      }
    }
    if (invalid) return;
    const saved: string[] = [];
    try {
      for (const { field, ready } of checked) {
        if ('issue' in ready) continue;
        try {
          await send(field.entry.key, ready.change);
        } catch (error) {
          field.showIssue(error instanceof ApiError ? error.message : errorText(error));
          throw error;
        }
        saved.push(field.entry.key);
      }
    } finally {
      if (saved.length > 0) {
        const restart = checked.filter(({ field }) => field.entry.restart && saved.includes(field.entry.key)).map(({ field }) => field.entry.key);
        toast(`${label}: ${plural(saved.length, 'change')} saved${restart.length > 0 ? `; restart Anima to use ${restart.join(', ')}` : ''}`);
        rebuild((await reload()).filter((entry) => saved.includes(entry.key)));
      }
    }
  };

  discard.addEventListener('click', () => rebuild(fields.filter((field) => field.change()).map((field) => field.entry)));
  filter('');
  update();
  return { element, filter };
}
