/** "Tap to enable sound": shown while the browser refuses speech audio; the tap unlocks it and plays it. */
import { h } from '../dom.ts';
import type { Speech } from './speech.ts';

export function soundButton(parent: HTMLElement, speech: Speech): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'sound-unlock', hidden: true }, h('span', { 'aria-hidden': 'true' }, '♪'), ' Tap to enable sound');
  button.addEventListener('click', () => speech.unlock());
  speech.onBlockedChange((blocked) => (button.hidden = !blocked));
  parent.append(button);
  return button;
}
