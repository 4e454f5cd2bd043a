/**
 * The words and units the About page shows for the fields of `GET /api/about`. A field added to the
 * answer later still reads as words: its name loses its unit suffix, which picks how its value is shown.
 */
import { formatBytes, formatDate, formatDuration } from './units.ts';

const LABELS: Record<string, string> = {
  name: 'Name',
  version: 'Version',
  started_at: 'Started',
  uptime_s: 'Uptime',
  active_sessions: 'Open connections',
  session_tokens: 'Active session tokens',
  ports: 'Ports',
  http: 'Web UI (HTTP)',
  https: 'Web UI (HTTPS)',
  compat: 'Ollama-compatible API',
  database: 'Database',
  dialect: 'Engine',
  system: 'System',
  node: 'Node.js',
  platform: 'Operating system',
  arch: 'Architecture',
  hostname: 'Host name',
  cpus: 'CPU cores',
  total_memory_bytes: 'Total memory',
  free_memory_bytes: 'Free memory',
  rss_bytes: 'Memory used by Anima',
  pid: 'Process id',
  load_average: 'Load average (1, 5, 15 min)',
};

/** A listener without a port (HTTPS without its TLS files) is off, not missing. */
const LISTENERS = new Set(['http', 'https', 'compat']);

/** Values that have a proper name of their own. */
const NAMES: Record<string, string> = { sqlite: 'SQLite', mysql: 'MySQL / MariaDB', linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

/** Unit suffixes of field names, and how a value with that suffix is shown. */
const UNITS: Array<[suffix: string, show: (value: number) => string]> = [
  ['_bytes', formatBytes],
  ['_s', formatDuration],
  ['_ms', (value) => formatDuration(value / 1000)],
];

export function aboutLabel(key: string): string {
  const known = LABELS[key];
  if (known !== undefined) return known;
  const unit = UNITS.find(([suffix]) => key.endsWith(suffix))?.[0] ?? '';
  const words = key
    .slice(0, key.length - unit.length)
    .replace(/_at$/, '')
    .replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formatAboutValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return LISTENERS.has(key) ? 'off' : '–';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'number' && !Number.isInteger(item) ? item.toFixed(2) : String(item))).join(', ');
  if (typeof value === 'number') {
    const unit = UNITS.find(([suffix]) => key.endsWith(suffix));
    return unit ? unit[1](value) : String(value);
  }
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([inner, innerValue]) => `${aboutLabel(inner)}: ${formatAboutValue(inner, innerValue)}`)
      .join(', ');
  }
  if (key.endsWith('_at')) return formatDate(String(value));
  return NAMES[String(value)] ?? String(value);
}
