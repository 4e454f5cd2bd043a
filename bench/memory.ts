import { performance } from 'node:perf_hooks';
import type { Pool } from 'mysql2/promise';
import { recall, type RecallOptions } from '../plugins/memory/recall.ts';
import { ConfigStore } from '../src/config/store.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/dialect.ts';
import type { DialectName } from '../src/db/schema.ts';
import { MemoryStore } from '../src/memory/memory-store.ts';
import { benchDatabase, mysqlAnswers } from './lib/bench-database.ts';
import { interleaved } from './lib/interleaved.ts';
import { DEFAULT_SET, makeMemorySet, type MemorySet } from './lib/memory-set.ts';
import { percentile, type Report } from './lib/report.ts';

/**
 * Memory recall on a synthetic set (bench/lib/memory-set.ts: 500 people, 50,000 memories, 200 questions
 * whose right memory is known): recall@5 with full-text search alone (is the right memory among the
 * first five that go into the prompt?), and the time of one recall (plugins/memory/recall.ts, called
 * directly) against a bare indexed SELECT of the rows it chooses from (the person's current memories,
 * by the `memories_person_current` index, through the raw driver). SQLite always; MariaDB/MySQL when
 * MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306/test) answers.
 */

const TOP = 5;
/** Each question is asked this many times for the timings (recall changes nothing it reads). */
const ROUNDS = 3;
const BATCH = 1000;
const BARE_SELECT = `SELECT id, person_id, kind, topic, text, importance, created_at, last_recalled_at, source_path, pinned, superseded_by
  FROM memories WHERE person_id = ? AND superseded_by IS NULL`;

/** The set goes in as rows, with their ids, in one transaction: loading is not what is measured. */
async function load(handle: DatabaseHandle, set: MemorySet): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    const created_at = set.now;
    for (let start = 0; start < set.people.length; start += BATCH) {
      const people = set.people.slice(start, start + BATCH);
      await trx
        .insertInto('people')
        .values(people.map(({ id, display_name }) => ({ id, display_name, created_at })))
        .execute();
      await trx
        .insertInto('person_identities')
        .values(people.map(({ id, identity }) => ({ identity, person_id: id, created_at })))
        .execute();
    }
    for (let start = 0; start < set.memories.length; start += BATCH) {
      const rows = set.memories.slice(start, start + BATCH).map((memory) => ({
        ...memory,
        pinned: memory.pinned ? 1 : 0,
        superseded_by: null,
        embedding: null,
        embedding_model: null,
      }));
      await trx.insertInto('memories').values(rows).execute();
    }
  });
}

function bareSelect(handle: DatabaseHandle, pool: Pool | undefined) {
  if (handle.sqlite) {
    const statement = handle.sqlite.prepare(BARE_SELECT);
    return async (personId: number) => statement.all(personId);
  }
  if (!pool) throw new Error('no raw MySQL pool');
  return async (personId: number) => (await pool.query(BARE_SELECT, [personId]))[0];
}

async function run(dialect: DialectName, set: MemorySet, report: Report): Promise<{ recallAt5: number; ratio: number }> {
  const database = await benchDatabase(dialect, 'memory');
  const handle = await openDatabase(database.url);
  try {
    let at = performance.now();
    await load(handle, set);
    report.progress(`${dialect}: loaded ${set.memories.length} memories of ${set.people.length} people in ${Math.round(performance.now() - at)} ms`);
    const now = new Date(set.now);
    const store = new MemoryStore(handle, () => now);
    const defaults = ConfigStore.fromSources({});
    const people = new Map(set.people.map((person) => [person.id, person]));
    const ask = (index: number) => {
      const question = set.questions[index % set.questions.length];
      const person = question ? people.get(question.person_id) : undefined;
      if (!question || !person) throw new Error(`no question ${index}`);
      const options: RecallOptions = {
        budget: defaults.get('MEMORY_PROMPT_BUDGET'),
        fadeDays: defaults.get('MEMORY_FADE_DAYS'),
        now,
        senderName: person.display_name,
      };
      return { question, recalled: recall(store, { personId: person.id, conversationPath: person.conversation }, question.text, options) };
    };
    const select = bareSelect(handle, database.mysqlPool());

    const hits = { ranked: 0, searched: 0, prompted: 0 };
    for (let index = 0; index < set.questions.length; index += 1) {
      const { question, recalled } = ask(index);
      const used = (await recalled).used.map((memory) => memory.id);
      const searched = await store.list({ personId: question.person_id, q: question.text, limit: TOP });
      if (used.slice(0, TOP).includes(question.memory_id)) hits.ranked += 1;
      if (used.includes(question.memory_id)) hits.prompted += 1;
      if (searched.some((memory) => memory.id === question.memory_id)) hits.searched += 1;
    }
    const questions = set.questions.length;
    // Where a miss comes from: the words (the search's own best five) or the ranking (importance, fading, pinned first).
    report.figure(`${dialect}.search_at_5`, hits.searched / questions, 'of the questions: right memory among the best five of the full-text search');
    report.figure(`${dialect}.in_prompt`, hits.prompted / questions, 'of the questions: right memory among those within MEMORY_PROMPT_BUDGET');
    const recallAt5 = hits.ranked / questions;
    report.figure(`${dialect}.recall_at_5`, recallAt5, `of ${questions} questions: right memory among recall's first five (target >= 0.9)`);

    at = performance.now();
    const count = set.questions.length * ROUNDS;
    report.progress(`${dialect}: ${count} bare selects and ${count} recalls, alternating`);
    const timed = await interleaved(
      count,
      (index) => select(set.questions[index % set.questions.length]?.person_id ?? 0),
      (index) => ask(index).recalled,
    );
    report.progress(`${dialect}: timed in ${Math.round(performance.now() - at)} ms`);
    report.figure(`${dialect}.bare_select_p50`, percentile(timed.baseline.samples, 50), 'ms');
    report.figure(`${dialect}.recall_p50`, percentile(timed.ours.samples, 50), 'ms');
    const bareP99 = percentile(timed.baseline.samples, 99);
    const recallP99 = percentile(timed.ours.samples, 99);
    report.figure(`${dialect}.recall_p50_ratio_to_bare_select`, percentile(timed.ours.samples, 50) / percentile(timed.baseline.samples, 50), 'x');
    report.figure(`${dialect}.bare_select_p99`, bareP99, 'ms');
    report.figure(`${dialect}.recall_p99`, recallP99, 'ms');
    const ratio = recallP99 / bareP99;
    report.figure(`${dialect}.recall_p99_ratio_to_bare_select`, ratio, 'x (target <= 3)');
    return { recallAt5, ratio };
  } finally {
    await handle.close();
    await database.drop();
  }
}

export default async function memoryBench(report: Report): Promise<void> {
  const set = makeMemorySet(DEFAULT_SET);
  const results = [await run('sqlite', set, report)];
  if (await mysqlAnswers()) results.push(await run('mysql', set, report));
  else report.progress('MYSQL_TEST_URL does not answer: SQLite only');
  report.figure('recall_at_5_worst', Math.min(...results.map((result) => result.recallAt5)), 'of the questions, worst dialect (target >= 0.9)');
  report.figure('ratio', Math.max(...results.map((result) => result.ratio)), 'x recall p99 / bare indexed select p99, worst dialect (target <= 3)');
}
