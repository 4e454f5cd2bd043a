/**
 * The VOX_LANGUAGE_OVERRIDES editor: per language an engine, optional model and voice (spec 02). It writes
 * the variable's JSON into the configuration field, which its section saves with the other changes.
 */
import { errorText, h } from '../dom.ts';
import { apiJson } from '../net/api.ts';

interface Override {
  engine: string;
  model?: string;
  voice?: string;
}

interface Catalogue {
  languages: Array<{ code: string; name: string }>;
  engines: string[];
}

function parse(value: unknown): Record<string, Override> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Override>) : {};
  } catch {
    return {};
  }
}

export function languageOverridesEditor(current: unknown, apply: (json: string) => void): HTMLElement {
  const rows = h('tbody');
  const issue = h('p', { class: 'issue', role: 'alert', hidden: true });
  const root = h(
    'section',
    { class: 'card', id: 'vox-language-overrides' },
    h('h3', {}, 'Voice per language (VOX_LANGUAGE_OVERRIDES)'),
    h(
      'p',
      { class: 'muted' },
      'Languages not listed use ACTIVE_VOX_ENGINE. Engine "disabled" means the default engine; empty model and voice keep the defaults.',
    ),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Language'), h('th', {}, 'Engine'), h('th', {}, 'Model'), h('th', {}, 'Voice'), h('th', {}))),
        rows,
      ),
    ),
    issue,
  );
  apiJson<Catalogue>('/api/languages')
    .then((catalogue) => {
      const addRow = (code = '', override: Override = { engine: 'disabled' }) => {
        const language = h(
          'select',
          { 'aria-label': 'Language' },
          ...catalogue.languages.map((item) => h('option', { value: item.code, selected: item.code === code }, `${item.name} (${item.code})`)),
        );
        const engines = [...new Set(['disabled', ...catalogue.engines, override.engine])];
        const engine = h(
          'select',
          { 'aria-label': 'Engine' },
          ...engines.map((name) => h('option', { value: name, selected: name === override.engine }, name)),
        );
        const model = h('input', { type: 'text', 'aria-label': 'Model', value: override.model ?? '' });
        const voice = h('input', { type: 'text', 'aria-label': 'Voice', value: override.voice ?? '' });
        const row = h('tr', {}, h('td', {}, language), h('td', {}, engine), h('td', {}, model), h('td', {}, voice));
        const remove = h('button', { type: 'button' }, 'Remove');
        remove.addEventListener('click', () => {
          row.remove();
          edited();
        });
        row.append(h('td', {}, remove));
        rows.append(row);
      };
      const collect = (): Record<string, Override> => {
        const result: Record<string, Override> = {};
        for (const row of rows.rows) {
          const [language, engine] = [...row.querySelectorAll('select')].map((select) => select.value);
          const [model, voice] = [...row.querySelectorAll('input')].map((input) => input.value.trim());
          if (!language || !engine) continue;
          if (result[language]) throw new Error(`${language} is listed twice`);
          result[language] = { engine, ...(model ? { model } : {}), ...(voice ? { voice } : {}) };
        }
        return result;
      };
      const edited = () => {
        try {
          apply(JSON.stringify(collect()));
          issue.hidden = true;
        } catch (error) {
          issue.textContent = errorText(error);
          issue.hidden = false;
        }
      };
      for (const [code, override] of Object.entries(parse(current))) addRow(code, override);
      rows.addEventListener('change', edited);
      rows.addEventListener('input', edited);
      const add = h('button', { type: 'button' }, 'Add language');
      add.addEventListener('click', () => {
        addRow();
        edited();
      });
      root.append(h('div', { class: 'row' }, add));
    })
    .catch((error: unknown) => root.append(h('p', { class: 'error' }, `The language list is unavailable: ${errorText(error)}`)));
  return root;
}
