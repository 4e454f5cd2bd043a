import { readFile, writeFile } from 'node:fs/promises';

/** The words a JSGF grammar can produce: everything but its header, rule names, tags, weights and operators. */
export function grammarWords(jsgf: string): Set<string> {
  const body = jsgf
    .split('\n')
    .filter((line) => !/^\s*(#JSGF|grammar\s|import\s)/.test(line))
    .map((line) => line.replace(/\/\/.*$/, ''))
    .join(' ')
    .replace(/public\s+<[^>]*>\s*=/g, ' ')
    .replace(/<[^>]*>\s*=/g, ' ')
    .replace(/<[^>]*>|\{[^}]*\}|\/[^/]*\//g, ' ');
  return new Set(
    body
      .split(/[\s|()[\]*+;=]+/)
      .map((word) => word.toLowerCase())
      .filter((word) => word !== ''),
  );
}

/**
 * Writes to `target` the lines of the pronunciation dictionary `source` for these words (alternative
 * pronunciations `word(2)` included) and returns true; false when the dictionary lacks one of them,
 * so the caller keeps the whole dictionary and the recogniser reports the unknown word itself.
 * pocketsphinx spends most of a short utterance's time loading its 3 MB dictionary: a grammar of a few
 * phrases needs a few lines of it.
 */
export async function writeGrammarDictionary(source: string, words: Set<string>, target: string): Promise<boolean> {
  const found = new Set<string>();
  const lines = (await readFile(source, 'utf8')).split('\n').filter((line) => {
    const head = line.slice(0, line.search(/\s/)).replace(/\(\d+\)$/, '');
    if (!words.has(head)) return false;
    found.add(head);
    return true;
  });
  if (found.size < words.size) return false;
  await writeFile(target, `${lines.join('\n')}\n`);
  return true;
}
