/** One upload at a time: its progress bar while the file goes out, then the outcome or the API's error. */
import { errorText, h } from '../../dom.ts';
import { type UploadProgress, uploadWithProgress } from '../../net/upload.ts';

export class TransferStatus {
  private readonly bar = h('progress', { max: 1, 'aria-label': 'Upload progress' });
  private readonly text = h('p', { role: 'status' });
  readonly element = h('div', { class: 'transfer', hidden: true }, this.bar, this.text);

  /** Sends `form` to `path`; resolves with the answer, or undefined once the failure is shown. */
  async send<T>(name: string, path: string, form: FormData): Promise<T | undefined> {
    this.element.hidden = false;
    this.bar.hidden = false;
    this.show(`Uploading ${name}…`);
    this.progress({ loaded: 0, total: 0 });
    try {
      const answer = await uploadWithProgress<T>(path, form, (progress) => {
        this.progress(progress);
        this.show(progress.total > 0 ? `Uploading ${name}… ${Math.floor((100 * progress.loaded) / progress.total)} %` : `Uploading ${name}…`);
      });
      this.progress({ loaded: 1, total: 1 });
      this.show(`${name} uploaded.`);
      return answer;
    } catch (error) {
      this.fail(`${name}: ${errorText(error)}`);
      return undefined;
    }
  }

  /** Shows a problem found before anything was sent. */
  fail(message: string): void {
    this.element.hidden = false;
    this.bar.hidden = true;
    this.show(message, true);
  }

  private progress({ loaded, total }: UploadProgress): void {
    // Without a known size the bar is indeterminate (no value) rather than stuck at zero.
    if (total > 0) this.bar.value = loaded / total;
    else this.bar.removeAttribute('value');
  }

  private show(message: string, error = false): void {
    this.text.textContent = message;
    this.text.className = error ? 'error' : 'muted';
    this.text.setAttribute('role', error ? 'alert' : 'status');
  }
}
