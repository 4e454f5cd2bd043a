/** The pending change of one field, and the line that shows it before it is sent. */
import { maskCredentials } from '../../../config/credential-mask.ts';
import { type ConfigEntry, shownText } from './entry.ts';

export type Change =
  /** A new value, as the text to send. */
  | { kind: 'set'; value: string }
  /** Back to the value of .env, the environment or the default (the saved entry is removed). */
  | { kind: 'reset' }
  /** A file for a file variable: uploading it also saves its path. */
  | { kind: 'upload'; file: File };

/** Long values (JSON, prompts) are cut so that each change stays one readable line. */
const LONGEST = 80;

function brief(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > LONGEST ? `${line.slice(0, LONGEST - 1)}…` : line;
}

function after(entry: ConfigEntry, change: Change): string {
  switch (change.kind) {
    case 'reset':
      return `default (${brief(shownText(entry.default))})`;
    case 'upload':
      return `upload ${change.file.name}`;
    case 'set':
      // The old value came masked from the server; the new one is masked here by the same rule.
      return entry.secret ? 'a new value (hidden)' : brief(shownText(maskCredentials(entry.type, change.value)));
  }
}

/** `LOGGING_LEVEL: info → debug`: what saving will do, with no secret or credential in clear. */
export function describeChange(entry: ConfigEntry, change: Change): string {
  return `${entry.key}: ${brief(shownText(entry.value))} → ${after(entry, change)}`;
}
