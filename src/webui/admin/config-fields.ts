/** One configuration variable as an editable field, with the type checks the server would make. */
import { errorText, h } from '../dom.ts';
import { ApiError, apiFetch, postJson } from '../net/api.ts';
import { actionButton, download, toast } from './ui.ts';

export interface ConfigEntry {
  key: string;
  value: string | { set: boolean };
  default: string | { set: boolean };
  source: string;
  group: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'enum' | 'file' | 'list';
  description: string;
  secret: boolean;
  restart: boolean;
  editable: boolean;
  choices?: string[];
  /** A saved value that is stored but not in use (it stopped the start, or no longer validates). */
  ignored?: { value: string | { set: boolean }; reason: string };
}

/** What the user should know about a saved value the server set aside, and what to do about it. */
function ignoredNotice(ignored: NonNullable<ConfigEntry['ignored']>): string {
  const saved = typeof ignored.value === 'string' ? ` ${ignored.value}` : '';
  return `The saved value${saved} is not in use: ${ignored.reason}. Save a new value, or Reset to remove it.`;
}

/** The value to send, or the reason it cannot be sent. */
export function validate(entry: ConfigEntry, raw: string): { ok: true; value: string } | { ok: false; issue: string } {
  const value = entry.type === 'json' ? raw : raw.trim();
  switch (entry.type) {
    case 'integer':
      return /^-?\d+$/.test(value) ? { ok: true, value } : { ok: false, issue: 'Enter a whole number.' };
    case 'number':
      return value !== '' && Number.isFinite(Number(value)) ? { ok: true, value } : { ok: false, issue: 'Enter a number.' };
    case 'boolean':
      return value === 'true' || value === 'false' ? { ok: true, value } : { ok: false, issue: 'Choose true or false.' };
    case 'enum':
      return entry.choices?.includes(value) ? { ok: true, value } : { ok: false, issue: `Choose one of: ${entry.choices?.join(', ')}.` };
    case 'json':
      try {
        JSON.parse(value);
        return { ok: true, value };
      } catch (error) {
        return { ok: false, issue: `Not valid JSON: ${errorText(error)}` };
      }
    default:
      return { ok: true, value };
  }
}

function input(entry: ConfigEntry): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  const current = typeof entry.value === 'string' ? entry.value : '';
  const id = `config-${entry.key}`;
  if (entry.secret) {
    const set = typeof entry.value === 'object' && entry.value.set;
    return h('input', { id, type: 'password', autocomplete: 'off', placeholder: set ? '•••••• (set; type to replace)' : 'not set' });
  }
  if (entry.type === 'boolean' || entry.type === 'enum') {
    const choices = entry.type === 'boolean' ? ['true', 'false'] : (entry.choices ?? []);
    return h('select', { id }, ...choices.map((choice) => h('option', { value: choice, selected: choice === current }, choice)));
  }
  if (entry.type === 'json') return h('textarea', { id, rows: 3, spellcheck: false, value: current });
  return h('input', {
    id,
    type: entry.type === 'integer' || entry.type === 'number' ? 'number' : 'text',
    step: entry.type === 'number' ? 'any' : undefined,
    value: current,
  });
}

function fileControls(entry: ConfigEntry, saved: () => Promise<void>): HTMLElement {
  const picker = h('input', { type: 'file', 'aria-label': `Upload a file for ${entry.key}` });
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    apiFetch(`/api/config/${encodeURIComponent(entry.key)}/upload`, { method: 'POST', body: form })
      .then(async () => {
        toast(`${entry.key}: file uploaded`);
        await saved();
      })
      .catch((error: unknown) => toast(errorText(error), true));
  });
  return h(
    'div',
    { class: 'row' },
    picker,
    !entry.secret &&
      typeof entry.value === 'string' &&
      entry.value !== '' &&
      actionButton('Download', () => download(`/api/config/${encodeURIComponent(entry.key)}/file`, entry.key)),
  );
}

export function configField(entry: ConfigEntry, saved: () => Promise<void>): HTMLElement {
  const control = input(entry);
  const issue = h('p', { class: 'issue', role: 'alert', hidden: true });
  const show = (text: string | undefined) => {
    issue.hidden = !text;
    issue.textContent = text ?? '';
  };
  control.addEventListener('input', () => show(undefined));
  const save = async (value: string | null) => {
    try {
      await postJson('/api/config', { key: entry.key, value });
      toast(`${entry.key} saved${entry.restart ? ' (applies after a restart)' : ''}`);
      await saved();
    } catch (error) {
      show(error instanceof ApiError ? error.message : errorText(error));
    }
  };
  const disabled = !entry.editable;
  control.disabled = disabled;
  return h(
    'div',
    { class: 'field', 'data-key': entry.key },
    h('label', { for: control.id }, entry.key),
    h(
      'div',
      {},
      entry.type !== 'file' || !entry.secret ? control : null,
      h(
        'div',
        { class: 'row' },
        !disabled &&
          actionButton('Save', async () => {
            if (entry.secret && control.value === '') return show('Type a new value to replace the secret, or use Reset.');
            const checked = validate(entry, control.value);
            if (!checked.ok) return show(checked.issue);
            await save(checked.value);
          }),
        !disabled && (entry.source === 'override' || entry.ignored) && actionButton('Reset', () => save(null)),
        entry.restart && h('span', { class: 'badge' }, 'restart'),
        h('span', { class: 'muted' }, `source: ${entry.source}`),
      ),
      entry.type === 'file' && !disabled && fileControls(entry, saved),
      entry.ignored && h('p', { class: 'warning', role: 'status' }, ignoredNotice(entry.ignored)),
    ),
    h('p', { class: 'help' }, entry.description),
    issue,
  );
}
