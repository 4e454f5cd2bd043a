/**
 * Memory: what Anima remembers and of whom. Search, filter by person, add, edit, pin, delete; the people
 * with their identities, linking and forgetting; everything as a JSON export.
 */
import { MEMORY_KINDS } from '../../memory/types.ts';
import { h } from '../dom.ts';
import type { View } from '../view.ts';
import { addMemory, LIST_LIMIT, listMemories, listPeople, type Memory, type MemoryQuery, type PersonEntry } from './memory-api.ts';
import { memoryCard } from './memory-cards.ts';
import { peopleSection, personOptions } from './memory-people.ts';
import { actionButton, download, loader, toast } from './ui.ts';

/** Keeps a select's choice across reloads while that person still exists. */
function refill(select: HTMLSelectElement, first: HTMLOptionElement, people: readonly PersonEntry[]): void {
  const chosen = select.value;
  select.replaceChildren(first, ...personOptions(people));
  select.value = people.some((person) => String(person.id) === chosen) ? chosen : first.value;
}

function addForm(people: () => readonly PersonEntry[], afterAdd: () => Promise<void>) {
  const text = h('textarea', { rows: 2, 'aria-label': 'New memory', placeholder: 'Ann’s sister is called Mia', maxlength: 4000 });
  const kind = h('select', { 'aria-label': 'Kind' }, ...MEMORY_KINDS.map((name) => h('option', { value: name }, name)));
  kind.value = 'fact';
  const person = h('select', { 'aria-label': 'About' });
  const importance = h('input', { type: 'number', min: '0', max: '1', step: '0.1', value: '0.5', 'aria-label': 'Importance' });
  const pinned = h('input', { type: 'checkbox', id: 'memory-new-pinned' });
  const add = actionButton('Add', async () => {
    const personId = person.value === '' ? null : Number(person.value);
    await addMemory({
      person_id: personId,
      kind: kind.value as Memory['kind'],
      text: text.value,
      importance: importance.valueAsNumber,
      pinned: pinned.checked,
    });
    toast('Remembered');
    text.value = '';
    pinned.checked = false;
    await afterAdd();
  });
  const section = h(
    'section',
    { class: 'card memory-add', 'aria-label': 'Add a memory' },
    h('h2', {}, 'Add a memory'),
    text,
    h('div', { class: 'row' }, kind, person, h('label', {}, 'Importance ', importance), h('label', { for: 'memory-new-pinned' }, pinned, ' Pinned'), add),
  );
  return { section, update: () => refill(person, h('option', { value: '' }, 'No person'), people()) };
}

export const view: View = (root) => {
  const query: MemoryQuery = { q: '', personId: undefined };
  let people: PersonEntry[] = [];
  const search = h('input', { type: 'search', 'aria-label': 'Search memories', placeholder: 'Search memories' });
  const personFilter = h('select', { 'aria-label': 'Person' });
  const searchForm = h(
    'form',
    { class: 'row memory-search', role: 'search' },
    search,
    personFilter,
    h('button', { type: 'submit' }, 'Search'),
    actionButton('Export JSON', () => download('/api/memory/export', 'anima-memory.json')),
  );
  const content = h('div');
  const adding = addForm(
    () => people,
    () => reload(),
  );
  root.append(searchForm, adding.section, content);

  const showPerson = (personId: number) => {
    personFilter.value = String(personId);
    query.personId = personId;
    void reload().then(() => searchForm.scrollIntoView());
  };
  const actions = { showPerson, reload: () => reload(), people: new Map<number, PersonEntry>() };
  const reload: () => Promise<void> = loader(
    content,
    async () => {
      const [memories, known] = await Promise.all([listMemories(query), listPeople()]);
      return { memories, known };
    },
    ({ memories, known }) => {
      people = known;
      actions.people = new Map(known.map((person) => [person.id, person]));
      refill(personFilter, h('option', { value: '' }, 'All people'), known);
      adding.update();
      const searched = query.q.trim() !== '' ? ` for “${query.q.trim()}”` : '';
      return [
        h(
          'section',
          { 'aria-label': 'Memories' },
          h(
            'p',
            { class: 'muted', role: 'status' },
            memories.length === 0 && searched === '' && query.personId === undefined
              ? 'Nothing remembered yet.'
              : `${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}${searched}${memories.length === LIST_LIMIT ? ` (the first ${LIST_LIMIT})` : ''}`,
          ),
          ...memories.map((memory) => memoryCard(memory, actions)),
        ),
        peopleSection(known, actions),
      ];
    },
  );
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    query.q = search.value;
    query.personId = personFilter.value === '' ? undefined : Number(personFilter.value);
    void reload();
  });
  personFilter.addEventListener('change', () => searchForm.requestSubmit());
};
