/** A custom VRM model (`POST /api/vrm`): dropped here, it replaces the skin's model on every avatar. */
import type { VrmModel } from '../../../body/messages.ts';
import { errorText, h } from '../../dom.ts';
import { apiJson } from '../../net/api.ts';
import { dropZone } from './drop-zone.ts';
import { TransferStatus } from './transfer-status.ts';

interface Adopted {
  vrm_model: VrmModel;
  version: string;
}

export function modelUpload(): HTMLElement {
  const status = new TransferStatus();
  const current = h('p', { class: 'current-model' }, 'Current model: …');
  const showCurrent = (model: VrmModel | null) => (current.textContent = `Current model: ${model ? model.name : 'none'}`);
  apiJson<{ vrm_model: VrmModel | null }>('/api/body/state/model')
    .then(({ vrm_model }) => showCurrent(vrm_model))
    .catch((error: unknown) => (current.textContent = `Current model unknown: ${errorText(error)}`));

  const upload = async ([model]: File[]) => {
    if (!model) return;
    const form = new FormData();
    form.append('file', model, model.name);
    const adopted = await status.send<Adopted>(model.name, '/api/vrm', form);
    if (adopted) showCurrent(adopted.vrm_model);
  };

  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Model'),
    current,
    h('p', { class: 'muted' }, 'A VRM model (0.x or 1.0) uploaded here is shown instead of the skin’s own until the active skin changes.'),
    dropZone({ label: 'VRM model', hint: 'Drop a .vrm file here, or click to choose.', accept: '.vrm', onFiles: (files) => void upload(files) }),
    status.element,
  );
}
