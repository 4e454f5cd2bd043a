/**
 * Animation uploads (contract "Uploads"): drop an FBX or VRMA clip for a state, with its descriptor if
 * it has one; then play it on the avatar, promote it into the skin, or delete it.
 */
import { h } from '../../dom.ts';
import { ApiError, apiJson, postJson } from '../../net/api.ts';
import { actionButton, loader, toast } from '../ui.ts';
import { formatBytes, formatDate } from '../units.ts';
import { dropZone } from './drop-zone.ts';
import { TransferStatus } from './transfer-status.ts';

/** An entry of `GET /api/animations/uploads`: meta.json plus where the file is served. */
interface Upload {
  upload_id: string;
  state: string;
  file: string;
  original_name: string;
  size: number;
  created_at: string;
  expires_at: string;
  has_descriptor: boolean;
  url: string;
}

interface PlayResult {
  accepted: boolean;
  state: string;
}

interface Promoted {
  skin: string;
  state: string;
  file: string;
}

/** The states every body has; plugins may register more, which the field accepts too (the server checks). */
const CORE_STATES = ['idle', 'think', 'write', 'talk'];

const isDescriptor = (file: File) => file.name.toLowerCase().endsWith('.json');

/** The dropped descriptor named after the clip (`Wave.fbx.json` or `Wave.json` for `Wave.fbx`), if any. */
function descriptorFor(clip: File, descriptors: File[]): File | undefined {
  const stem = clip.name.replace(/\.[^.]*$/, '');
  return descriptors.find((file) => file.name === `${clip.name}.json` || file.name === `${stem}.json`);
}

export function animationUploads(): HTMLElement {
  const status = new TransferStatus();
  const state = h('input', { type: 'text', list: 'upload-states', required: true, placeholder: 'think', autocomplete: 'off' });
  const chosenDescriptor = h('input', { type: 'file', accept: '.json,application/json' });
  const list = h('div');

  const upload = async (files: File[]) => {
    const clips = files.filter((file) => !isDescriptor(file));
    if (clips.length === 0) return status.fail('Drop the animation itself (an FBX or VRMA file); a .json descriptor goes with it.');
    const target = state.value.trim();
    if (target === '') {
      state.focus();
      return status.fail('Choose the state the animation is for first (idle, think, write, talk…).');
    }
    for (const clip of clips) {
      const form = new FormData();
      form.append('state', target);
      const descriptor = chosenDescriptor.files?.[0] ?? descriptorFor(clip, files.filter(isDescriptor));
      if (descriptor) form.append('descriptor', descriptor, descriptor.name);
      form.append('file', clip, clip.name);
      if (!(await status.send(clip.name, '/api/animations/upload', form))) break;
    }
    chosenDescriptor.value = '';
    await reload();
  };

  const play = async (item: Upload) => {
    const result = await postJson<PlayResult>('/api/animation_state', { state: item.state, source: 'uploads' });
    if (result.accepted) toast(`Playing ${item.file} (${item.state}) on the avatar`);
    else toast(`Not played: the avatar is busy with ${result.state}, which ranks above ${item.state}`, true);
  };

  const promote = async (item: Upload) => {
    let promoted: Promoted;
    try {
      promoted = await postJson<Promoted>('/api/animations/promote', { upload_id: item.upload_id });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409 && confirm(`The skin already has ${item.state}/${item.file}. Replace it?`))) throw error;
      promoted = await postJson<Promoted>('/api/animations/promote', { upload_id: item.upload_id, overwrite: true });
    }
    toast(`Promoted into ${promoted.skin}/animations/${promoted.state}/${promoted.file}`);
    await reload();
  };

  const remove = async (item: Upload) => {
    if (!confirm(`Delete the upload ${item.file}?`)) return;
    await apiJson(`/api/animations/uploads/${encodeURIComponent(item.upload_id)}`, { method: 'DELETE' });
    await reload();
  };

  const card = (item: Upload) =>
    h(
      'article',
      { class: 'card upload', 'data-id': item.upload_id },
      h(
        'div',
        { class: 'row' },
        h('strong', {}, item.file),
        h('span', { class: 'badge' }, item.state),
        item.has_descriptor && h('span', { class: 'badge' }, 'descriptor'),
      ),
      h('p', { class: 'muted' }, `${formatBytes(item.size)} · uploaded ${formatDate(item.created_at)} · kept until ${formatDate(item.expires_at)}`),
      h(
        'div',
        { class: 'row' },
        actionButton('Play', () => play(item)),
        actionButton('Promote into the skin', () => promote(item)),
        actionButton('Delete', () => remove(item), 'danger'),
      ),
    );

  const reload = loader(
    list,
    () => apiJson<{ uploads: Upload[] }>('/api/animations/uploads'),
    ({ uploads }) => (uploads.length === 0 ? [h('p', { class: 'muted' }, 'No uploads yet.')] : uploads.map(card)),
  );

  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Animations'),
    h(
      'p',
      { class: 'muted' },
      'A clip uploaded for a state plays instead of the skin’s clips for that state until it is deleted, promoted into the skin or expires.',
    ),
    h(
      'div',
      { class: 'row' },
      h('label', {}, 'State ', state),
      h('datalist', { id: 'upload-states' }, ...CORE_STATES.map((name) => h('option', { value: name }))),
      h('label', {}, 'Descriptor (optional) ', chosenDescriptor),
    ),
    dropZone({
      label: 'Animation file',
      hint: 'Drop an FBX or VRMA clip here (with its .fbx.json descriptor, if it has one), or click to choose.',
      accept: '.fbx,.vrma,.json',
      multiple: true,
      onFiles: (files) => void upload(files),
    }),
    status.element,
    h('h3', {}, 'Uploaded clips'),
    list,
  );
}
