import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { grammarWords, writeGrammarDictionary } from '../../src/audio/auris/grammar-dictionary.ts';
import { phrasesToJsgf } from '../../src/audio/auris/pocketsphinx-engine.ts';

const DICTIONARY = ['hello HH AH L OW', 'hello(2) HH EH L OW', 'hell HH EH L', 'world W ER L D', 'what W AH T', 'time T AY M', ''].join('\n');

describe("a grammar's own dictionary", () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('finds the words of a phrase list and of a hand-written grammar, and nothing of its syntax', () => {
    expect([...grammarWords(phrasesToJsgf(['Hello, world!', 'what time']))].sort()).toEqual(['hello', 'time', 'what', 'world']);
    const written = '#JSGF V1.0;\ngrammar greet;\n// a comment\n<name> = World | Time {tag};\npublic <greet> = (Hello [/2/ what] <name>)+ ;\n';
    expect([...grammarWords(written)].sort()).toEqual(['hello', 'time', 'what', 'world']);
  });

  it('keeps every pronunciation of those words only, and declines when a word is missing', async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-dict-'));
    const source = join(folder, 'full.dict');
    await writeFile(source, DICTIONARY);
    const target = join(folder, 'cut.dict');
    expect(await writeGrammarDictionary(source, new Set(['hello', 'world']), target)).toBe(true);
    expect((await readFile(target, 'utf8')).trim().split('\n')).toEqual(['hello HH AH L OW', 'hello(2) HH EH L OW', 'world W ER L D']);
    expect(await writeGrammarDictionary(source, new Set(['hello', 'anima']), join(folder, 'other.dict'))).toBe(false);
  });
});
