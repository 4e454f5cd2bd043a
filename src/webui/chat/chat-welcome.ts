/**
 * The chat's welcome while the conversation is empty: what works now (a language model or none, the
 * voice on or off) with a link to what is missing. It lives beside the chat log, never in it: it is not
 * a message, nothing saves it or sends it to the model, and it goes once the conversation has messages.
 */
import { h } from '../dom.ts';
import { apiJson } from '../net/api.ts';

/** GET /api/capabilities. */
interface Capabilities {
  cortex: { active: string | null; configured: string; notice: string | null };
  voice: { engine: string | null };
}

function cortexLine({ active, configured, notice }: Capabilities['cortex']): HTMLElement {
  if (active === 'manual') {
    return h(
      'p',
      { 'data-cortex': 'manual' },
      'The manual engine is active: an operator answers each message by hand on the ',
      h('a', { href: '#/operator' }, 'Operator page'),
      '.',
    );
  }
  if (active) return h('p', { 'data-cortex': 'active' }, `Answers come from the ${active} engine.`);
  const engineLink = h('a', { href: '#/components' }, 'Choose a language model');
  if (configured.trim() !== '' && notice) return h('p', { 'data-cortex': 'unavailable' }, notice, ' ', engineLink, '.');
  return h(
    'p',
    { 'data-cortex': 'none' },
    'No language model is configured yet, so messages get a notice instead of an answer. ',
    engineLink,
    ' (saved as ',
    h('code', {}, 'CORTEX_ENGINE'),
    ').',
  );
}

function voiceLine({ engine }: Capabilities['voice']): HTMLElement {
  if (engine) return h('p', { 'data-voice': 'on' }, `Voice is on (the ${engine} engine): Anima can speak its answers.`);
  return h(
    'p',
    { 'data-voice': 'off' },
    'Voice is off, so answers are text only; ',
    h('code', {}, 'ACTIVE_VOX_ENGINE'),
    ' on the ',
    h('a', { href: '#/config' }, 'Configuration page'),
    ' turns it on.',
  );
}

export class ChatWelcome {
  readonly element = h('section', { class: 'chat-welcome', 'aria-label': 'Welcome', hidden: true });
  private capabilities: Capabilities | undefined;
  private empty = false;

  /** The welcome shows only while the conversation is empty (and once the server said what works). */
  set conversationEmpty(empty: boolean) {
    this.empty = empty;
    this.render();
  }

  /** Asks the server what works now: at the start, and after a visit to the settings. */
  refresh(): void {
    apiJson<Capabilities>('/api/capabilities')
      .then((capabilities) => {
        this.capabilities = capabilities;
        this.render();
      })
      // Without the facts there is nothing true to say; the chat works as before.
      .catch(() => undefined);
  }

  private render(): void {
    const { capabilities } = this;
    this.element.hidden = !this.empty || !capabilities;
    if (this.element.hidden || !capabilities) return;
    this.element.replaceChildren(
      h('h2', {}, 'Welcome'),
      cortexLine(capabilities.cortex),
      voiceLine(capabilities.voice),
      h('p', { class: 'muted' }, 'Type below to start. This note is not part of the conversation.'),
    );
  }
}
