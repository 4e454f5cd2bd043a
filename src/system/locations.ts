const MAX_SUGGESTIONS = 20;

/** Place names from the IANA time-zone database ("Europe/Rome" gives "Rome, Europe"), known offline. */
const places: readonly string[] = Intl.supportedValuesOf('timeZone')
  .filter((zone) => zone.includes('/') && !zone.startsWith('Etc/'))
  .map((zone) => {
    const parts = zone.split('/');
    const city = (parts.at(-1) ?? zone).replace(/_/g, ' ');
    return `${city}, ${parts[0]}`;
  });

function localPlace(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return places.find((place) => zone.endsWith(place.split(',')[0]?.replace(/ /g, '_') ?? ''));
}

/**
 * Suggestions for the persona's location: the configured one, the machine's own time zone, then places
 * whose name starts with (or, failing that, contains) the query.
 */
export function suggestLocations(current: string, query: string | undefined) {
  const needle = query?.trim().toLowerCase() ?? '';
  const prefixed = places.filter((place) => place.toLowerCase().startsWith(needle));
  const matches = prefixed.length > 0 ? prefixed : places.filter((place) => place.toLowerCase().includes(needle));
  const local = localPlace();
  const ordered = needle === '' ? [current, local ?? ''] : [...matches];
  return {
    current: current === '' ? null : current,
    local: local ?? null,
    suggestions: [...new Set(ordered.filter((place) => place !== ''))].slice(0, MAX_SUGGESTIONS),
  };
}
