/**
 * A synthetic long-term memory, the same for a given seed: people, what is remembered of each (profile,
 * facts, episodes, mixed as an extraction would leave them, with shared words across people and topics),
 * and questions whose right memory is known. `bench/memory.ts` measures recall on it;
 * `scripts/make-memory-set.ts` writes it out as JSON to look at.
 */
import type { MemoryKind } from '../../src/memory/types.ts';
import * as words from './memory-vocabulary.ts';

export interface SyntheticPerson {
  id: number;
  display_name: string;
  identity: string;
  /** The conversation their episodes belong to (the recall's `conversationPath`). */
  conversation: string;
}

export interface SyntheticMemory {
  id: number;
  person_id: number;
  kind: MemoryKind;
  topic: string;
  text: string;
  importance: number;
  created_at: string;
  last_recalled_at: string | null;
  source_path: string | null;
  pinned: boolean;
}

export interface SyntheticQuestion {
  person_id: number;
  text: string;
  /** The memory a good recall puts near the top. */
  memory_id: number;
}

export interface MemorySet {
  seed: number;
  now: string;
  people: SyntheticPerson[];
  memories: SyntheticMemory[];
  questions: SyntheticQuestion[];
}

export interface MemorySetOptions {
  seed: number;
  people: number;
  memoriesPerPerson: number;
  questions: number;
  /** The moment the questions are asked; memories are older. */
  now: Date;
}

export const DEFAULT_SET: MemorySetOptions = { seed: 21, people: 500, memoriesPerPerson: 100, questions: 200, now: new Date('2026-06-01T12:00:00Z') };

/** mulberry32: a small seeded generator, so the set is the same on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  /** `count` distinct items. */
  const sample = <T>(list: readonly T[], count: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, count);
  };
  const between = (low: number, high: number) => low + (high - low) * next();
  return { next, pick, sample, between };
}
type Random = ReturnType<typeof random>;

/** One remembered thing of a family, and a question a person might ask that it answers (when it has one). */
interface Draft {
  kind: MemoryKind;
  topic: string;
  text: string;
  question?: string;
}

/** `count` memories of one family about the person called `name`. */
type Family = (name: string, count: number, rng: Random) => Draft[];

const FAMILIES: Array<{ name: string; count: number; make: Family }> = [
  {
    name: 'relation',
    count: 8,
    make: (p, n, rng) =>
      rng.sample(words.RELATIONS, n).map((relation) => {
        const name = rng.pick(words.FIRST_NAMES);
        return {
          kind: 'profile',
          topic: relation,
          text: `${p}'s ${relation} is called ${name}.`,
          question: rng.pick([`What was my ${relation}'s name again?`, `My ${relation} phoned me today.`]),
        };
      }),
  },
  {
    name: 'pet',
    count: 1,
    make: (p, n, rng) =>
      rng.sample(words.ANIMALS, n).map((animal) => ({
        kind: 'profile',
        topic: 'pet',
        text: `${p} has a ${animal} named ${rng.pick(words.PET_NAMES)}.`,
        question: `My ${animal} has not been eating, what should I do?`,
      })),
  },
  {
    name: 'skill',
    count: 3,
    make: (p, n, rng) =>
      rng.sample(words.SKILLS, n).map((skill) => ({
        kind: 'fact',
        topic: `learning ${skill}`,
        text: `${p} is learning ${skill}.`,
        question: rng.pick([`I practised ${skill} for two hours today.`, `Do you think I am getting better at ${skill}?`]),
      })),
  },
  {
    name: 'job',
    count: 1,
    make: (p, n, rng) =>
      Array.from({ length: n }, () => {
        const company = rng.pick(words.COMPANIES);
        return { kind: 'profile', topic: 'job', text: `${p} works as a ${rng.pick(words.JOBS)} at ${company}.`, question: `Another long day at ${company}.` };
      }),
  },
  {
    name: 'places',
    count: 11,
    make: (p, n, rng) =>
      rng.sample(words.CITIES, n).map((city, index) =>
        index === 0
          ? { kind: 'profile', topic: 'home', text: `${p} lives in ${city}.`, question: `Any ideas for a rainy weekend in ${city}?` }
          : {
              kind: 'fact',
              topic: `trip to ${city}`,
              text: `${p} went to ${city} in ${rng.pick(words.MONTHS)} and loved the ${rng.pick(words.SIGHTS)}.`,
              question: rng.pick([`Remember my trip to ${city}?`, `I miss ${city} so much.`]),
            },
      ),
  },
  {
    name: 'food',
    count: 15,
    make: (p, n, rng) =>
      rng.sample(words.FOODS, n).map((food) => ({
        kind: 'fact',
        topic: `food ${food}`,
        text: `${p} ${rng.pick(words.FOOD_FEELINGS)} ${food}.`,
        question: `Should I order ${food} tonight?`,
      })),
  },
  {
    name: 'allergy',
    count: 1,
    make: (p, n, rng) =>
      rng.sample(words.ALLERGENS, n).map((allergen) => ({
        kind: 'profile',
        topic: 'allergy',
        text: `${p} is allergic to ${allergen}.`,
        question: `Can you suggest a dinner without ${allergen}?`,
      })),
  },
  {
    name: 'reading',
    count: 8,
    make: (p, n, rng) =>
      Array.from({ length: n }, () => {
        const title = `The ${rng.pick(words.TITLE_ADJECTIVES)} ${rng.pick(words.TITLE_NOUNS)}`;
        const author = `${rng.pick(words.FIRST_NAMES)} ${rng.pick(words.LAST_NAMES)}`;
        return { kind: 'fact', topic: `book ${title}`, text: `${p} is reading "${title}" by ${author}.`, question: `I finished ${title} last night!` };
      }),
  },
  {
    name: 'event',
    count: 10,
    make: (p, n, rng) =>
      rng.sample(words.EVENTS, n).map((event) => ({
        kind: 'fact',
        topic: event,
        text: `${p} has a ${event} on ${rng.pick(words.WEEKDAYS)}.`,
        question: rng.pick([`I am nervous about the ${event}.`, `The ${event} went better than expected.`]),
      })),
  },
  {
    name: 'friend',
    count: 20,
    make: (p, n, rng) =>
      rng.sample(words.FIRST_NAMES, n).map((friend) => ({
        kind: 'fact',
        topic: `friend ${friend}`,
        text: `${p}'s friend ${friend} ${rng.pick(words.FRIEND_NEWS)}.`,
        question: `I had lunch with ${friend} yesterday.`,
      })),
  },
  {
    name: 'sport',
    count: 3,
    make: (p, n, rng) =>
      rng.sample(words.SPORTS, n).map((sport) => ({
        kind: 'fact',
        topic: sport,
        text: `${p} plays ${sport} with the ${rng.pick(words.CLUBS)}.`,
        question: `We lost our ${sport} match again.`,
      })),
  },
  {
    name: 'episode',
    count: 10,
    make: (p, n, rng) =>
      Array.from({ length: n }, () => {
        const [first, second] = rng.sample(words.TOPICS, 2) as [string, string];
        return {
          kind: 'episode',
          topic: `episode ${first}`,
          text: `Talked with ${p} about ${first} and ${second}; ${p} seemed ${rng.pick(words.MOODS)}.`,
          question: `Can we talk about ${first} again?`,
        };
      }),
  },
  {
    name: 'habit',
    count: 9,
    make: (p, n, rng) => rng.sample(words.HABITS, n).map((habit) => ({ kind: 'fact', topic: habit, text: `${p} ${habit}.` })),
  },
];

const DAY_MS = 86_400_000;

function importanceOf(kind: MemoryKind, rng: Random): number {
  const [low, high] = kind === 'profile' ? [0.6, 0.95] : kind === 'fact' ? [0.3, 0.8] : [0.3, 0.6];
  return Math.round(rng.between(low, high) * 100) / 100;
}

/** Learned some time in the last two months; a third were recalled in the last two weeks. */
function timesOf(now: Date, rng: Random): { created_at: string; last_recalled_at: string | null } {
  const created = now.getTime() - rng.between(0, 60) * DAY_MS;
  const recalled = rng.next() < 1 / 3 ? Math.max(created, now.getTime() - rng.between(0, 14) * DAY_MS) : null;
  return { created_at: new Date(created).toISOString(), last_recalled_at: recalled === null ? null : new Date(recalled).toISOString() };
}

export function makeMemorySet(options: MemorySetOptions = DEFAULT_SET): MemorySet {
  const rng = random(options.seed);
  const names = rng.sample(
    words.FIRST_NAMES.flatMap((first) => words.LAST_NAMES.map((last) => `${first} ${last}`)),
    options.people,
  );
  const perPerson = FAMILIES.reduce((sum, family) => sum + family.count, 0);
  const scale = options.memoriesPerPerson / perPerson;
  const people: SyntheticPerson[] = names.map((display_name, index) => ({
    id: index + 1,
    display_name,
    identity: `telegram_bot:${100_000 + index}`,
    conversation: `telegram_bot/${100_000 + index}`,
  }));
  const memories: SyntheticMemory[] = [];
  /** For each person, their memories that answer a question, by family. */
  const askable: Array<Map<string, Array<{ id: number; question: string }>>> = [];
  for (const person of people) {
    const firstName = person.display_name.split(' ')[0] as string;
    const families = new Map<string, Array<{ id: number; question: string }>>();
    for (const family of FAMILIES) {
      for (const draft of family.make(firstName, Math.round(family.count * scale), rng)) {
        const id = memories.length + 1;
        memories.push({
          id,
          person_id: person.id,
          kind: draft.kind,
          topic: draft.topic,
          text: draft.text,
          importance: importanceOf(draft.kind, rng),
          ...timesOf(options.now, rng),
          source_path: draft.kind === 'episode' ? person.conversation : null,
          pinned: rng.next() < 0.01,
        });
        if (draft.question) families.set(family.name, [...(families.get(family.name) ?? []), { id, question: draft.question }]);
      }
    }
    askable.push(families);
  }
  // Questions go round the families that have them, so each kind of thing remembered is asked about.
  const askedFamilies = [...(askable[0]?.keys() ?? [])];
  const questions: SyntheticQuestion[] = Array.from({ length: options.questions }, (_, index) => {
    const person = rng.pick(people);
    const family = askedFamilies[index % askedFamilies.length] as string;
    const target = rng.pick(askable[person.id - 1]?.get(family) ?? []);
    return { person_id: person.id, text: target.question, memory_id: target.id };
  });
  return { seed: options.seed, now: options.now.toISOString(), people, memories, questions };
}
