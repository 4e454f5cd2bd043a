/** Components: Cortex engines, interfaces and plugins with their status, the dev toggle, Run now. */
import { h } from '../dom.ts';
import { apiJson, postJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { actionButton, loader, toast } from './ui.ts';

interface Component {
  name: string;
  kind: string;
  status: 'loaded' | 'FAILED' | 'stopped';
  reason: string | null;
  dev: boolean;
  description: string | null;
  runnable: boolean;
  active?: boolean;
  connection: { state: 'connecting' | 'connected' | 'disconnected'; detail: string | null } | null;
}

interface Status {
  llm: { active: string | null; configured: string; notice: string | null; engines: Component[] };
  interfaces: Component[];
  plugins: Component[];
  dev_components_enabled: boolean;
}

function componentCard(component: Component, reload: () => Promise<void>): HTMLElement {
  const failed = component.status === 'FAILED';
  return h(
    'article',
    { class: 'card component', 'data-name': component.name, 'data-status': component.status },
    h(
      'div',
      { class: 'row' },
      h('span', { class: `status-dot ${component.status.toLowerCase()}`, title: component.status, 'aria-hidden': 'true' }),
      h('h3', {}, component.name),
      h('span', { class: `badge ${component.status.toLowerCase()}` }, component.status),
      component.dev && h('span', { class: 'badge dev' }, 'in development'),
      component.active && h('span', { class: 'badge loaded' }, 'active'),
      component.status === 'loaded' &&
        component.connection &&
        h('span', { class: `badge connection ${component.connection.state}`, 'data-connection': component.connection.state }, component.connection.state),
    ),
    component.status === 'loaded' && component.connection?.detail && h('p', { class: 'muted connection-detail' }, component.connection.detail),
    component.description && h('p', { class: 'muted' }, component.description),
    failed && component.reason && h('p', { class: 'reason', role: 'note' }, component.reason),
    component.runnable &&
      actionButton('Run now', async () => {
        await postJson('/api/components/run', { name: component.name });
        toast(`${component.name} ran`);
        await reload();
      }),
  );
}

function devToggle(enabled: boolean): HTMLElement {
  const checkbox = h('input', { type: 'checkbox', id: 'dev-toggle', checked: enabled });
  const message = h('p', { class: 'muted', role: 'status' });
  checkbox.addEventListener('change', () => {
    checkbox.disabled = true;
    postJson<{ enabled: boolean; message: string }>('/api/components/dev/toggle', { enabled: checkbox.checked })
      .then((result) => {
        checkbox.checked = result.enabled;
        message.textContent = result.message;
      })
      .catch((error: unknown) => {
        checkbox.checked = !checkbox.checked;
        toast(String(error), true);
      })
      .finally(() => (checkbox.disabled = false));
  });
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Development components'),
    h('div', { class: 'row' }, checkbox, h('label', { for: 'dev-toggle' }, 'Load components from interface_dev/, plugins_dev/ and cortex/*/dev')),
    h('p', { class: 'warning' }, 'This switch is not saved: it applies at the next restart, and it is off again after any restart.'),
    message,
    actionButton('Restart now', async () => {
      if (!confirm('Restart Anima now? Open pages reconnect by themselves.')) return;
      await postJson('/api/system/restart', { confirm: true });
      toast('Restarting…');
    }),
  );
}

function cortexCard(llm: Status['llm'], reload: () => Promise<void>): HTMLElement {
  const select = h(
    'select',
    { 'aria-label': 'Cortex engine' },
    ...llm.engines.map((engine) => h('option', { value: engine.name, selected: engine.active === true }, engine.name)),
  );
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Cortex (language model)'),
    h('p', {}, llm.active ? `Active engine: ${llm.active}` : 'No engine is active.'),
    llm.notice && h('p', { class: 'warning' }, llm.notice),
    llm.engines.length > 0 &&
      h(
        'div',
        { class: 'row' },
        select,
        actionButton('Switch', async () => {
          await postJson('/api/components/cortex', { name: select.value });
          toast(`Cortex engine: ${select.value}`);
          await reload();
        }),
        actionButton('Log in', async () => {
          const result = await postJson<{ status: string; message?: string }>('/api/components/cortex/login', { name: select.value });
          toast(result.message ?? `Login: ${result.status}`);
        }),
      ),
    ...llm.engines.map((engine) => componentCard(engine, reload)),
  );
}

export const view: View = (root) => {
  const body = h('div');
  root.append(body);
  const reload: () => Promise<void> = loader(
    body,
    () => apiJson<Status>('/api/components'),
    (status) => [
      devToggle(status.dev_components_enabled),
      cortexCard(status.llm, () => reload()),
      h('section', {}, h('h2', {}, 'Interfaces'), ...status.interfaces.map((component) => componentCard(component, () => reload()))),
      h(
        'section',
        {},
        h('h2', {}, 'Plugins'),
        ...(status.plugins.length ? status.plugins.map((component) => componentCard(component, () => reload())) : [h('p', { class: 'muted' }, 'No plugins.')]),
      ),
    ],
  );
};
