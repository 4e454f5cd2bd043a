import { h } from './dom.ts';

/** Asks a remote visitor for the API key once (the server trusts only loopback clients without it). */
export function askForApiKey(): Promise<string> {
  return new Promise((resolve) => {
    const input = h('input', { type: 'password', autocomplete: 'current-password', required: true, 'aria-label': 'API key' });
    const dialog = h(
      'dialog',
      { class: 'key-dialog' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', {}, 'API key needed'),
        h('p', {}, 'This browser is not on the server machine. Enter the APP_API_KEY of this Anima server; it is kept in this browser.'),
        input,
        h('button', { type: 'submit' }, 'Continue'),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(input.value.trim());
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
