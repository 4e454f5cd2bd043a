import { definePlugin } from '../../src/components/contract.ts';

/** Formatters by zone ('' for the server's): building one costs far more than formatting, and every prompt formats. */
const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  if (!formatters.has(timeZone)) {
    try {
      formatters.set(timeZone, new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }));
    } catch {
      formatters.set(timeZone, undefined);
    }
  }
  return formatters.get(timeZone);
}

/** The zone to use: PERSONA_TIMEZONE when it is a zone Intl knows, else the server's. */
function zoneOf(configured: string): string | undefined {
  const zone = configured.trim();
  return zone !== '' && formatterFor(zone) ? zone : undefined;
}

export function describeNow(now: Date, timeZone: string | undefined): string {
  const text = (formatterFor(timeZone ?? '') as Intl.DateTimeFormat).format(now);
  return `${text}${timeZone ? ` (${timeZone})` : ''}`;
}

/** Tells the assistant the date and time, in the persona's time zone. */
export default definePlugin({
  description: 'Adds the current date and time (PERSONA_TIMEZONE) to the prompt.',
  create: ({ config }) => {
    const now = () => {
      const timeZone = zoneOf(config.get('PERSONA_TIMEZONE'));
      const date = new Date();
      return { now: date.toISOString(), time_zone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, text: describeNow(date, timeZone) };
    };
    return {
      // Every prompt asks: only the text, without run's server zone lookup (a new DateTimeFormat each time).
      promptContext: () => `It is now ${describeNow(new Date(), zoneOf(config.get('PERSONA_TIMEZONE')))}.`,
      run: now,
    };
  },
});
