/**
 * Writes the synthetic memory set of `bench/memory.ts` as JSON (people, memories, questions with their
 * right memory), to look at or load elsewhere: `npx tsx scripts/make-memory-set.ts [file] [--seed=N]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SET, makeMemorySet } from '../bench/lib/memory-set.ts';

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith('--')) ?? 'tmp/memory-set.json';
const seed = Number(args.find((arg) => arg.startsWith('--seed='))?.slice('--seed='.length) ?? DEFAULT_SET.seed);
if (!Number.isInteger(seed)) throw new Error('--seed takes a whole number');
const set = makeMemorySet({ ...DEFAULT_SET, seed });
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(set, null, 1)}\n`);
process.stdout.write(`${file}: ${set.people.length} people, ${set.memories.length} memories, ${set.questions.length} questions (seed ${seed})\n`);
