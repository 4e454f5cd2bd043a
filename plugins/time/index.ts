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
  needs: ['clock'],
  // The host's clock is wall-clock epoch milliseconds; through it a test sets the time the persona is told.
  create: ({ config, services: { clock } }) => {
    const now = () => {
      const timeZone = zoneOf(config.get('PERSONA_TIMEZONE'));
      const date = new Date(clock.now());
      return { now: date.toISOString(), time_zone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, text: describeNow(date, timeZone) };
    };
    /** The prompt's line changes once a minute (the time is to the minute); every prompt asks for it. */
    let line = { zone: '', minute: Number.NaN, text: '' };
    const promptLine = () => {
      const zone = config.get('PERSONA_TIMEZONE');
      const minute = Math.floor(clock.now() / 60_000);
      if (line.minute !== minute || line.zone !== zone) line = { zone, minute, text: `It is now ${describeNow(new Date(minute * 60_000), zoneOf(zone))}.` };
      return line.text;
    };
    return {
      promptContext: promptLine,
      run: now,
    };
  },
});
