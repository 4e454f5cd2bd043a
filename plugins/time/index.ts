import { definePlugin } from '../../src/components/contract.ts';

/** The zone to use: PERSONA_TIMEZONE when it is a zone Intl knows, else the server's. */
function zoneOf(configured: string): string | undefined {
  if (configured.trim() === '') return undefined;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: configured.trim() });
    return configured.trim();
  } catch {
    return undefined;
  }
}

export function describeNow(now: Date, timeZone: string | undefined): string {
  const text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(now);
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
      promptContext: () => `It is now ${now().text}.`,
      run: now,
    };
  },
});
