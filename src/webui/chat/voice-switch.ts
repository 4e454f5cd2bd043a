/**
 * The voice switch: whether replies are spoken in this window. Remembered per browser (localStorage),
 * told to the server after every hello and on each change (`{type: "voice", speak}`), and off it keeps
 * every speech clip silent here (the server stops sending them too).
 */
import { h } from '../dom.ts';
import type { ClientMessage } from '../protocol.ts';

const STORAGE_KEY = 'anima.voice';

export class VoiceSwitch {
  readonly element: HTMLButtonElement;
  private speak: boolean;

  constructor(
    private readonly send: (message: ClientMessage) => boolean,
    private readonly onChange: (speak: boolean) => void,
  ) {
    this.speak = localStorage.getItem(STORAGE_KEY) !== 'off';
    this.element = h('button', { type: 'button', class: 'voice-switch' });
    this.element.addEventListener('click', () => this.set(!this.speak));
    this.render();
    onChange(this.speak);
  }

  /** After each hello: the server learns this window's choice. */
  announce(): void {
    this.send({ type: 'voice', speak: this.speak });
  }

  private set(speak: boolean): void {
    this.speak = speak;
    localStorage.setItem(STORAGE_KEY, speak ? 'on' : 'off');
    this.render();
    this.onChange(speak);
    this.announce();
  }

  private render(): void {
    this.element.setAttribute('aria-pressed', String(this.speak));
    this.element.title = this.speak ? 'Replies are spoken: click to mute' : 'Replies are not spoken: click to hear them';
    this.element.replaceChildren(h('span', { 'aria-hidden': 'true' }, '♪ '), this.speak ? 'Voice on' : 'Voice off');
  }
}
