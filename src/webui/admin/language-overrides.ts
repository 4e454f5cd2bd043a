/** The VOX_LANGUAGE_OVERRIDES editor: per language an engine, optional model and voice (spec 02). */
import { errorText, h } from '../dom.ts';
import { apiJson, postJson } from '../net/api.ts';
import { actionButton, toast } from './ui.ts';

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

export function languageOverridesEditor(current: unknown, saved: () => Promise<void>): HTMLElement {
  const rows = h('tbody');
  const root = h(
    'section',
    { class: 'card', id: 'vox-language-overrides' },
    h('h3', {}, 'Voice per language (VOX_LANGUAGE_OVERRIDES)'),
    h(
      'p',
      { class: 'muted' },
      'Languages not listed use ACTIVE_VOX_ENGINE. Engine "disabled" means the default engine; empty model and voice keep the defaults.',
    ),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Language'), h('th', {}, 'Engine'), h('th', {}, 'Model'), h('th', {}, 'Voice'), h('th', {}))), rows),
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
        row.append(h('td', {}, h('button', { type: 'button', on: { click: () => row.remove() } }, 'Remove')));
        rows.append(row);
      };
      for (const [code, override] of Object.entries(parse(current))) addRow(code, override);
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
      root.append(
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', on: { click: () => addRow() } }, 'Add language'),
          actionButton('Save overrides', async () => {
            await postJson('/api/config', { key: 'VOX_LANGUAGE_OVERRIDES', value: collect() });
            toast('VOX_LANGUAGE_OVERRIDES saved');
            await saved();
          }),
        ),
      );
    })
    .catch((error: unknown) => root.append(h('p', { class: 'error' }, `The language list is unavailable: ${errorText(error)}`)));
  return root;
}
