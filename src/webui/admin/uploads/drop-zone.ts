/** A drop zone with a file input behind it: drop files on it, or click or tab to it to choose them. */
import { h } from '../../dom.ts';

export interface DropZoneOptions {
  /** What the zone takes, shown in bold and given to the input as its name. */
  label: string;
  hint: string;
  /** The input's file filter: what the picker offers; a drop is not filtered (the server checks content). */
  accept: string;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
}

export function dropZone(options: DropZoneOptions): HTMLLabelElement {
  const input = h('input', { type: 'file', accept: options.accept, multiple: options.multiple === true, 'aria-label': options.label });
  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])];
    // Cleared so that choosing the same file again (after fixing the state, say) is a change too.
    input.value = '';
    if (files.length > 0) options.onFiles(files);
  });
  const zone = h('label', { class: 'drop-zone' }, h('strong', {}, options.label), h('span', { class: 'muted' }, options.hint), input);
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) options.onFiles(files);
  });
  return zone;
}

/** While a page with drop zones is shown, a file dropped beside a zone is ignored instead of opened in place of the page. */
export function ignoreStrayDrops(): () => void {
  const ignore = (event: DragEvent) => event.preventDefault();
  window.addEventListener('dragover', ignore);
  window.addEventListener('drop', ignore);
  return () => {
    window.removeEventListener('dragover', ignore);
    window.removeEventListener('drop', ignore);
  };
}
