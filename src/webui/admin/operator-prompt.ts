/** One prompt waiting for the operator (the manual engine): who asked, where, what, how long ago, and the answer box. */
import { h } from '../dom.ts';
import { ApiError, postJson } from '../net/api.ts';
import { toast } from './ui.ts';

/**
 * A prompt of `GET /api/cortex/manual/pending` (cortex/manual/pending-prompts.ts), declared here: that
 * module reaches the component contract, whose Node types must stay out of the page's type check.
 */
export interface PendingPrompt {
  id: string;
  interface_path: string;
  sender: { id: string; name: string };
  text: string;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  created_at: string;
}

/** Interfaces by the first segment of their paths, as a person would name them. */
const PLACES: Record<string, string> = {
  webui: 'Web chat',
  compat: 'Ollama/OpenAI client',
  integration: 'Integration',
  live: 'Voice',
};

function place(interfacePath: string): string {
  const id = interfacePath.split('/')[0] ?? interfacePath;
  return PLACES[id] ?? id;
}

export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}

export interface PromptCard {
  element: HTMLElement;
  /** Refreshes "how long ago". */
  tick(now: number): void;
}

/**
 * The card of one prompt. `onGone` runs once the prompt is no longer waiting: answered from here, or
 * found gone when answering (another window answered it, or its asker stopped waiting).
 */
export function promptCard(prompt: PendingPrompt, onGone: (id: string) => void): PromptCard {
  const who = prompt.sender.name || prompt.sender.id;
  const time = h('time', { class: 'muted', datetime: prompt.created_at }, ago(prompt.created_at));
  const answer = h('textarea', { rows: 3, required: true, maxlength: 100_000, 'aria-label': `Answer to ${who}`, placeholder: 'Your answer…' });
  const send = h('button', { type: 'submit' }, 'Send');
  const form = h('form', { class: 'operator-answer' }, answer, send);
  const submit = async () => {
    const text = answer.value;
    if (text.trim() === '') return;
    send.disabled = true;
    try {
      await postJson('/api/cortex/manual/answer', { id: prompt.id, text });
      toast(`Answer sent to ${who}`);
      onGone(prompt.id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        toast('This prompt is no longer waiting: it was answered elsewhere, or its asker stopped waiting.', true);
        onGone(prompt.id);
      } else {
        toast(error instanceof Error ? error.message : String(error), true);
      }
    } finally {
      send.disabled = false;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  // Enter is a new line (answers may have several); Ctrl or Cmd with Enter sends.
  answer.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  });
  const element = h(
    'article',
    { class: 'card operator-prompt', 'data-id': prompt.id },
    h(
      'div',
      { class: 'row' },
      h('strong', { title: `Sender id: ${prompt.sender.id}` }, who),
      h('span', { class: 'badge' }, place(prompt.interface_path)),
      h('code', {}, prompt.interface_path),
      time,
    ),
    h('blockquote', { class: 'operator-question' }, prompt.text),
    h(
      'details',
      {},
      h('summary', {}, `The whole prompt (${prompt.messages.length} turns)`),
      h(
        'ol',
        { class: 'operator-turns' },
        ...prompt.messages.map((turn) => h('li', { 'data-role': turn.role }, h('strong', {}, `${turn.role}: `), turn.content)),
      ),
    ),
    form,
  );
  return { element, tick: (now) => (time.textContent = ago(prompt.created_at, now)) };
}
