import type { ChatTurn } from '../../src/components/contract.ts';
import type { Track } from './station-api.ts';

/** One transition between songs: the one that just ended and, when announced, the one after it. */
export interface Transition {
  ended: Track;
  next: Track | null;
}

/** A listener's message (integration ingress, source `radio`) as the prompt shows it. */
export interface ListenerMessage {
  name: string;
  text: string;
}

interface Lines {
  ended: Array<(song: string) => string>;
  next: Array<(song: string) => string>;
  by: string;
}

/** The fast variant's sentences; a language without its own lines speaks English (the model variant speaks any). */
const TEMPLATES: Readonly<Record<string, Lines>> = {
  english: {
    ended: [(song) => `That was ${song}.`, (song) => `You just heard ${song}.`, (song) => `${song}, lovely.`],
    next: [(song) => `Coming up: ${song}.`, (song) => `Next up, ${song}.`, (song) => `Stay tuned for ${song}.`],
    by: 'by',
  },
  german: {
    ended: [(song) => `Das war ${song}.`, (song) => `Ihr hörtet gerade ${song}.`],
    next: [(song) => `Gleich geht es weiter mit ${song}.`, (song) => `Als Nächstes: ${song}.`],
    by: 'von',
  },
  italian: {
    ended: [(song) => `Era ${song}.`, (song) => `Avete appena ascoltato ${song}.`],
    next: [(song) => `Tra poco: ${song}.`, (song) => `E adesso ${song}.`],
    by: 'di',
  },
  french: {
    ended: [(song) => `C'était ${song}.`, (song) => `Vous venez d'écouter ${song}.`],
    next: [(song) => `Tout de suite : ${song}.`, (song) => `À suivre : ${song}.`],
    by: 'de',
  },
  spanish: {
    ended: [(song) => `Eso fue ${song}.`, (song) => `Acabáis de escuchar ${song}.`],
    next: [(song) => `A continuación, ${song}.`, (song) => `Y ahora, ${song}.`],
    by: 'de',
  },
};

const LANGUAGE_CODES: Readonly<Record<string, string>> = { en: 'english', de: 'german', it: 'italian', fr: 'french', es: 'spanish' };

function linesFor(language: string): Lines {
  const key = language.trim().toLowerCase();
  return TEMPLATES[key] ?? TEMPLATES[LANGUAGE_CODES[key.slice(0, 2)] ?? ''] ?? (TEMPLATES.english as Lines);
}

function named(track: Track, by: string): string {
  return track.artist ? `${track.title} ${by} ${track.artist}` : track.title;
}

/** The template variant; `pick` (0..1) chooses among the phrasings so breaks do not all sound alike. */
export function templateBanter(transition: Transition, language: string, pick: number): string {
  const lines = linesFor(language);
  const choose = <T>(options: T[]) => options[Math.min(options.length - 1, Math.floor(pick * options.length))] as T;
  const ended = choose(lines.ended)(named(transition.ended, lines.by));
  return transition.next ? `${ended} ${choose(lines.next)(named(transition.next, lines.by))}` : ended;
}

const describe = (track: Track) => `"${track.title}"${track.artist ? ` by ${track.artist}` : ''}`;

/** The language-model variant's request: one or two spoken sentences, nothing to read aloud by mistake. */
export function banterPrompt(transition: Transition, options: { language: string; stationName: string; listeners: ListenerMessage[] }): ChatTurn[] {
  const facts = [`The song that just ended: ${describe(transition.ended)}.`];
  if (transition.next) facts.push(`The next song: ${describe(transition.next)}.`);
  if (options.listeners.length > 0) {
    facts.push('Recent messages from listeners (mention one only if it fits):');
    for (const message of options.listeners) facts.push(`- ${message.name}: ${message.text}`);
  }
  return [
    {
      role: 'system',
      content: [
        `You are the radio DJ of ${options.stationName || 'this station'}, speaking on air between two songs.`,
        `Answer in ${options.language} with one or two short, warm sentences (under 40 words) about the song that ended${transition.next ? ' and the next one' : ''}.`,
        'Write only the words to be spoken: no emoji, no stage directions, no quotes around the answer, no hashtags.',
      ].join(' '),
    },
    { role: 'user', content: facts.join('\n') },
  ];
}

/** A model's answer as a spoken line: one paragraph, no markup, no emotion tags, bounded. */
export function spokenLine(answer: string): string {
  return answer
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/[*_#`"]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);
}
