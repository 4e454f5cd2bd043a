/** One configuration variable as a field of its section: its label and help, a control, its pending change. */
import { h } from '../../dom.ts';
import { languageOverridesEditor } from '../language-overrides.ts';
import { actionButton, download } from '../ui.ts';
import type { Change } from './diff.ts';
import { type ConfigEntry, SOURCE_NAMES, validate } from './entry.ts';

export interface ConfigField {
  readonly entry: ConfigEntry;
  readonly element: HTMLElement;
  /** What saving would do, as typed; undefined while the field is unchanged. */
  change(): Change | undefined;
  /** The change checked as the server would check it, or why it cannot be sent. */
  ready(): { change: Change } | { issue: string } | undefined;
  showIssue(text: string | undefined): void;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Editors that write a variable's JSON for the user; the field still holds the text that is saved. */
const EDITORS: Record<string, (current: unknown, apply: (json: string) => void) => HTMLElement> = {
  VOX_LANGUAGE_OVERRIDES: languageOverridesEditor,
};

const TRUE_WORDS = ['true', '1', 'yes', 'on'];

/** The text a control starts with: a boolean written as `1` or `on` in .env is shown as the choice `true`. */
function startText(entry: ConfigEntry): string {
  if (typeof entry.value !== 'string') return '';
  if (entry.type === 'boolean') return TRUE_WORDS.includes(entry.value.trim().toLowerCase()) ? 'true' : 'false';
  return entry.value;
}

function control(entry: ConfigEntry, id: string): Control {
  if (entry.type === 'file') return h('input', { id, type: 'file' });
  if (entry.secret) {
    const set = typeof entry.value === 'object' && entry.value.set;
    return h('input', { id, type: 'password', autocomplete: 'off', placeholder: set ? '•••••• (set; type to replace)' : 'not set' });
  }
  const current = startText(entry);
  if (entry.type === 'boolean' || entry.type === 'enum') {
    const choices = entry.type === 'boolean' ? ['true', 'false'] : (entry.choices ?? []);
    return h('select', { id }, ...choices.map((choice) => h('option', { value: choice, selected: choice === current }, choice)));
  }
  // A textarea's text is its content: a `value` attribute would leave it empty.
  if (entry.type === 'json') return h('textarea', { id, rows: 3, spellcheck: false }, current);
  return h('input', {
    id,
    type: entry.type === 'integer' || entry.type === 'number' ? 'number' : 'text',
    step: entry.type === 'number' ? 'any' : undefined,
    value: current,
  });
}

/** Equal as the server would store them: JSON by its content, other text without surrounding spaces. */
function sameText(entry: ConfigEntry, a: string, b: string): boolean {
  if (entry.type !== 'json') return a.trim() === b.trim();
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return a === b;
  }
}

/** What a file variable holds now; a secret one (the private key) only says whether it is set. */
function currentFile(entry: ConfigEntry): HTMLElement {
  if (typeof entry.value === 'object') return h('p', { class: 'muted' }, entry.value.set ? 'A file is set.' : 'No file yet.');
  return h('p', { class: 'muted' }, entry.value === '' ? 'No file yet.' : `Current file: ${entry.value}`);
}

function ignoredNotice(ignored: NonNullable<ConfigEntry['ignored']>): HTMLElement {
  const saved = typeof ignored.value === 'string' ? ` ${ignored.value}` : '';
  return h('p', { class: 'warning', role: 'status' }, `The saved value${saved} is not in use: ${ignored.reason}. Save a new value, or Reset to remove it.`);
}

/** A field whose changes are reported through `changed`, so that its section can show them before saving. */
export function configField(entry: ConfigEntry, changed: () => void): ConfigField {
  const id = `config-${entry.key}`;
  const input = control(entry, id);
  const initial = input.value;
  input.disabled = !entry.editable;
  const issue = h('p', { class: 'issue', role: 'alert', hidden: true });
  const showIssue = (text: string | undefined) => {
    issue.hidden = !text;
    issue.textContent = text ?? '';
  };
  const notify = () => {
    showIssue(undefined);
    changed();
  };
  input.addEventListener('input', notify);
  input.addEventListener('change', notify);

  let resetting = false;
  const reset = h('button', { type: 'button' }, 'Reset');
  reset.addEventListener('click', () => {
    resetting = !resetting;
    input.disabled = resetting;
    reset.textContent = resetting ? 'Undo reset' : 'Reset';
    notify();
  });
  const canReset = entry.editable && (entry.source === 'override' || entry.ignored !== undefined);
  const canDownload = entry.type === 'file' && typeof entry.value === 'string' && entry.value !== '';
  const editor = EDITORS[entry.key];

  const change = (): Change | undefined => {
    if (resetting) return { kind: 'reset' };
    if (input instanceof HTMLInputElement && input.type === 'file') {
      const file = input.files?.[0];
      return file ? { kind: 'upload', file } : undefined;
    }
    if (entry.secret) return input.value === '' ? undefined : { kind: 'set', value: input.value };
    return sameText(entry, input.value, initial) ? undefined : { kind: 'set', value: input.value };
  };

  const element = h(
    'div',
    { class: 'field', 'data-key': entry.key },
    h(
      'div',
      { class: 'field-name' },
      h('label', { for: id }, entry.label),
      h('code', { class: 'key' }, entry.key),
      entry.restart && h('span', { class: 'badge restart', title: 'Saved at once, used from the next restart' }, 'Restart required'),
      h('span', { class: 'badge source' }, SOURCE_NAMES[entry.source]),
    ),
    h(
      'div',
      { class: 'field-value' },
      entry.type === 'file' && currentFile(entry),
      input,
      editor?.(entry.value, (json) => {
        input.value = json;
        input.dispatchEvent(new Event('input'));
      }),
      (canReset || canDownload) &&
        h(
          'div',
          { class: 'row' },
          canReset && reset,
          canDownload && actionButton('Download', () => download(`/api/config/${encodeURIComponent(entry.key)}/file`, entry.key)),
        ),
      h('p', { class: 'help' }, entry.description, !entry.editable && ' Set in .env or the environment only.'),
      issue,
      entry.ignored && ignoredNotice(entry.ignored),
    ),
  );

  return {
    entry,
    element,
    change,
    ready: () => {
      const pending = change();
      if (pending?.kind !== 'set') return pending && { change: pending };
      if (entry.secret && pending.value.trim() === '') return { issue: 'Type the new value, or use Reset to remove the saved one.' };
      const checked = validate(entry, pending.value);
      return checked.ok ? { change: { kind: 'set', value: checked.value } } : { issue: checked.issue };
    },
    showIssue,
  };
}
