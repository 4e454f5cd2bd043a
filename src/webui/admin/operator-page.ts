/**
 * Operator: the manual engine's prompts, answered by hand. The list follows the server by polling
 * (the engine is a component, and components have no way onto the page's socket), keeping each card,
 * and what is typed in it, for as long as its prompt waits.
 */
import { errorText, h } from '../dom.ts';
import { ApiError, apiJson } from '../net/api.ts';
import type { View } from '../view.ts';
import { type PendingPrompt, type PromptCard, promptCard } from './operator-prompt.ts';

/** How often the list asks the server; an answer from another window disappears here within this. */
const POLL_MS = 2000;

interface Capabilities {
  cortex: { active: string | null };
}

/** Which prompts reach this page: all of them with the manual engine active, else only those asking for it by name. */
function engineNote({ cortex }: Capabilities): HTMLElement {
  if (cortex.active === 'manual') return h('p', { class: 'muted' }, 'The manual engine is active: every message waits here for your answer.');
  return h(
    'p',
    { class: 'warning' },
    `${cortex.active ? `The active engine is ${cortex.active}` : 'No engine is active'}, so only clients that ask for the manual engine by name (the model anima/manual on the Ollama port) wait here. `,
    h('a', { href: '#/components' }, 'Switch the engine'),
    ' to answer every message.',
  );
}

export const view: View = (root) => {
  const note = h('div');
  const status = h('p', { class: 'muted', role: 'status' }, 'Loading…');
  const list = h('div', { class: 'operator-prompts' });
  root.append(note, status, list);
  const cards = new Map<string, PromptCard>();
  // A poll sent before an answer may still list its prompt; it must not come back.
  const gone = new Set<string>();
  let stopped = false;
  let installed = true;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const summarise = () => {
    status.textContent = cards.size === 0 ? 'No prompt is waiting.' : `${cards.size} waiting, oldest first.`;
  };
  const remove = (id: string) => {
    gone.add(id);
    cards.get(id)?.element.remove();
    cards.delete(id);
    summarise();
  };
  const show = (pending: PendingPrompt[]) => {
    const waiting = new Set(pending.map((prompt) => prompt.id));
    for (const id of cards.keys()) if (!waiting.has(id)) remove(id);
    const now = Date.now();
    for (const prompt of pending) {
      const card = cards.get(prompt.id);
      if (card) card.tick(now);
      else if (!gone.has(prompt.id)) {
        const created = promptCard(prompt, remove);
        cards.set(prompt.id, created);
        list.append(created.element);
      }
    }
    summarise();
  };
  const poll = async () => {
    try {
      show((await apiJson<{ pending: PendingPrompt[] }>('/api/cortex/manual/pending')).pending);
    } catch (error) {
      // Component routes exist from the start or never: without the engine there is nothing to wait for.
      if (error instanceof ApiError && error.status === 404) {
        installed = false;
        note.replaceChildren();
        status.textContent = 'The manual engine is not installed (cortex/manual), so no prompt can wait here.';
        return;
      }
      status.textContent = `Could not load the prompts: ${errorText(error)}`;
    }
    if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
  };

  apiJson<Capabilities>('/api/capabilities')
    .then((capabilities) => {
      if (installed) note.replaceChildren(engineNote(capabilities));
    })
    .catch(() => undefined);
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
};
