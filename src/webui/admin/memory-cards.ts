/** One card per memory: what it is, whom it is about, where it was learned; edit its text, pin it, delete it. */
import { h } from '../dom.ts';
import { changeMemory, deleteMemory, type Memory, type PersonEntry } from './memory-api.ts';
import { actionButton, toast } from './ui.ts';
import { formatDate } from './units.ts';

export interface CardActions {
  people: ReadonlyMap<number, PersonEntry>;
  /** Shows one person's memories (the person filter). */
  showPerson: (personId: number) => void;
  reload: () => Promise<void>;
}

const preview = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

function describeOwner(memory: Memory, actions: CardActions): Node | string {
  if (memory.person_id === null) return h('span', { class: 'badge' }, 'no person');
  const person = actions.people.get(memory.person_id);
  const name = person ? person.display_name : `person ${memory.person_id}`;
  return h(
    'button',
    { type: 'button', class: 'link-button', title: 'Show only their memories', on: { click: () => actions.showPerson(memory.person_id as number) } },
    name,
  );
}

/** The text, and in its place a textarea with Save and Cancel while it is being edited. */
function textBlock(memory: Memory, actions: CardActions): { block: HTMLElement; edit: HTMLButtonElement } {
  const block = h('div');
  const shown = h('p', { class: 'memory-text' }, memory.text);
  const show = () => block.replaceChildren(shown);
  const edit = h('button', { type: 'button' }, 'Edit');
  edit.addEventListener('click', () => {
    const field = h('textarea', { rows: 3, 'aria-label': `Text of memory ${memory.id}`, maxlength: 4000 }, memory.text);
    const save = actionButton('Save', async () => {
      await changeMemory(memory.id, { text: field.value });
      toast('Saved');
      await actions.reload();
    });
    block.replaceChildren(
      h('div', { class: 'memory-edit' }, field, h('div', { class: 'row' }, save, h('button', { type: 'button', on: { click: show } }, 'Cancel'))),
    );
    field.focus();
  });
  show();
  return { block, edit };
}

export function memoryCard(memory: Memory, actions: CardActions): HTMLElement {
  const { block, edit } = textBlock(memory, actions);
  return h(
    'article',
    { class: `card memory${memory.pinned ? ' pinned' : ''}`, 'data-id': String(memory.id) },
    h(
      'div',
      { class: 'row memory-facts' },
      h('span', { class: 'badge memory-kind' }, memory.kind),
      memory.pinned && h('span', { class: 'badge loaded' }, 'pinned'),
      h('span', { class: 'muted', title: 'Importance, 0 to 1' }, `importance ${memory.importance.toFixed(2)}`),
      describeOwner(memory, actions),
      memory.source_path && h('span', { class: 'muted memory-source' }, memory.source_path),
      h('time', { class: 'muted', datetime: memory.created_at }, formatDate(memory.created_at)),
    ),
    block,
    h(
      'div',
      { class: 'row' },
      edit,
      actionButton(memory.pinned ? 'Unpin' : 'Pin', async () => {
        await changeMemory(memory.id, { pinned: !memory.pinned });
        await actions.reload();
      }),
      actionButton(
        'Delete',
        async () => {
          if (!confirm(`Forget "${preview(memory.text)}" for good (with the older versions it replaced)?`)) return;
          await deleteMemory(memory.id);
          toast('Deleted');
          await actions.reload();
        },
        'danger',
      ),
    ),
  );
}
