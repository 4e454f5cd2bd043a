import type { VariableGroup } from './define.ts';
import { aliases, variables } from './schema.ts';

const GROUP_TITLES: Record<VariableGroup, string> = {
  server: 'Web app, trust and logging',
  database: 'Database',
  storage: 'Folders',
  history: 'Chat history',
  attention: 'Operators and chat attention',
  system: 'System and UI hints',
  avatar: 'Avatar and animation uploads',
  cortex: 'Language model (Cortex)',
  compat: 'Ollama-compatible server',
  radio: 'Radio host',
  platforms: 'Chat platforms',
  memory: 'Long-term memory',
  audio: 'Audio: Auris (speech to text), Vox (text to speech), Live',
  http_tts: 'HTTP text-to-speech engine',
};

/** The text of `.env.example`: every variable with its default and meaning, grouped. */
export function renderEnvExample(): string {
  const lines = [
    '# Anima configuration. Copy to .env and change what you need; every line shows the default.',
    '# Precedence: defaults < .env < environment < entries saved in the web UI (POST /api/config).',
    '# Variables marked (restart) are read at start only.',
    '',
  ];
  const byGroup = new Map<VariableGroup, string[]>();
  for (const [key, definition] of Object.entries(variables)) {
    const entries = byGroup.get(definition.group) ?? [];
    const choices = definition.choices ? ` One of: ${definition.choices.join(', ')}.` : '';
    entries.push(`# ${definition.description}${choices}${definition.restart ? ' (restart)' : ''}`, `${key}=${definition.default}`);
    byGroup.set(definition.group, entries);
  }
  for (const [group, entries] of byGroup) lines.push(`## ${GROUP_TITLES[group]}`, ...entries, '');
  lines.push(
    '## Per-engine voices',
    '# <ENGINE>_VOICE sets the voice of any TTS engine (LOCAL_VOICE and HTTP_VOICE above are two of them).',
    '',
    '## Legacy names, still honoured',
    ...Object.entries(aliases).map(([alias, target]) => `# ${alias}: alias of ${target}`),
    '# TTS_ENDPOINTS and TTS_TIMEOUT_SECONDS: fallbacks of HTTP_TTS_ENDPOINTS and HTTP_TTS_TIMEOUT_SECONDS',
    '',
  );
  return lines.join('\n');
}
