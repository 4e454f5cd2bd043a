/** The people Anima knows: their platform identities, linking one more identity to a person, forgetting a person. */
import { h } from '../dom.ts';
import { forgetPerson, linkIdentity, type PersonEntry } from './memory-api.ts';
import { actionButton, toast } from './ui.ts';

export interface PeopleActions {
  showPerson: (personId: number) => void;
  reload: () => Promise<void>;
}

/** `<select>` options of the people, each named with its id (two people may share a name). */
export function personOptions(people: readonly PersonEntry[]): HTMLOptionElement[] {
  return people.map((person) => h('option', { value: String(person.id) }, `${person.display_name} (#${person.id})`));
}

function personCard(person: PersonEntry, actions: PeopleActions): HTMLElement {
  return h(
    'article',
    { class: 'person', 'data-person-id': String(person.id) },
    h(
      'div',
      { class: 'row' },
      h('strong', {}, person.display_name),
      h('span', { class: 'muted' }, `#${person.id} · ${person.memory_count} ${person.memory_count === 1 ? 'memory' : 'memories'}`),
    ),
    h(
      'div',
      { class: 'row' },
      ...(person.identities.length === 0
        ? [h('span', { class: 'muted' }, 'no identity')]
        : person.identities.map((identity) => h('span', { class: 'badge identity' }, identity))),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', on: { click: () => actions.showPerson(person.id) } }, 'Show memories'),
      actionButton(
        'Forget',
        async () => {
          if (!confirm(`Forget everything remembered about ${person.display_name}? Their identities stay.`)) return;
          const deleted = await forgetPerson(person.id);
          toast(`Forgot ${deleted} ${deleted === 1 ? 'memory' : 'memories'} of ${person.display_name}`);
          await actions.reload();
        },
        'danger',
      ),
    ),
  );
}

function linkForm(people: readonly PersonEntry[], actions: PeopleActions): HTMLElement {
  const identity = h('input', { type: 'text', 'aria-label': 'Identity', placeholder: 'telegram_bot:123456', autocomplete: 'off' });
  const person = h('select', { 'aria-label': 'Link to person' }, ...personOptions(people));
  return h(
    'div',
    { class: 'memory-link' },
    h('h3', {}, 'Link an identity'),
    h('p', { class: 'muted' }, 'An identity is <interface>:<user id>. A person left without identities is merged into the one you pick.'),
    h(
      'div',
      { class: 'row' },
      identity,
      person,
      actionButton('Link', async () => {
        const linked = await linkIdentity(identity.value.trim(), Number(person.value));
        toast(`${identity.value.trim()} is now ${linked.display_name}'s`);
        identity.value = '';
        await actions.reload();
      }),
    ),
  );
}

export function peopleSection(people: readonly PersonEntry[], actions: PeopleActions): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-label': 'People' },
    h('h2', {}, 'People'),
    people.length === 0
      ? h('p', { class: 'muted' }, 'Nobody yet: a person is made for each sender on first contact.')
      : h('div', { class: 'people' }, ...people.map((person) => personCard(person, actions))),
    people.length > 0 && linkForm(people, actions),
  );
}
