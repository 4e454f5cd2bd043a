/** Small building blocks shared by the admin pages. */
import { errorText, h } from '../dom.ts';
import { apiFetch } from '../net/api.ts';

export function toast(text: string, error = false): void {
  const note = h('div', { class: `toast${error ? ' error' : ''}`, role: error ? 'alert' : 'status' }, text);
  document.body.append(note);
  setTimeout(() => note.remove(), error ? 6000 : 3000);
}

/** A button that runs an async action once at a time and reports its failure. */
export function actionButton(label: string, action: () => Promise<unknown>, className = ''): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className }, label);
  button.addEventListener('click', () => {
    button.disabled = true;
    action()
      .catch((error: unknown) => toast(errorText(error), true))
      .finally(() => (button.disabled = false));
  });
  return button;
}

/** Loads data into `root`, showing progress and errors; returns a reload function. */
export function loader<T>(root: HTMLElement, load: () => Promise<T>, render: (data: T) => Node[]): () => Promise<void> {
  const reload = async () => {
    try {
      const data = await load();
      root.replaceChildren(...render(data));
    } catch (error) {
      root.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Could not load: ${errorText(error)}`));
    }
  };
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  void reload();
  return reload;
}

/** Downloads an API file with the credentials a plain link would not carry. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await apiFetch(path);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
