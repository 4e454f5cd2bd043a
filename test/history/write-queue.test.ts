import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../../src/history/write-queue.ts';
import { createLogger } from '../../src/logging.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

const LEVELS: Record<number, string> = { 30: 'info', 40: 'warn', 50: 'error' };

/** A real pino logger whose JSON lines are kept as {level, message, data}. */
function recordingLog() {
  const lines: Array<{ level: string; message: string; data: Record<string, unknown> }> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      const { level, msg, ...data } = JSON.parse(String(chunk)) as { level: number; msg: string } & Record<string, unknown>;
      lines.push({ level: LEVELS[level] ?? String(level), message: msg, data });
      done();
    },
  });
  return { log: createLogger({ level: 'info', pretty: false, destination }).logger, lines };
}

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
const policy = { capacity: 3, initialDelayMs: 5, maxDelayMs: 40 };

/** Moves the clock to the queue's next retry and waits for that retry to finish. */
async function retryDue(clock: ManualClock, queue: Pick<WriteQueue<unknown, unknown>, 'drain'>): Promise<void> {
  const due = clock.nextDue();
  if (due === undefined) throw new Error('no retry is scheduled');
  clock.advance(due - clock.now());
  await queue.drain();
}

describe('write retry queue', () => {
  it('writes at once while the database answers', async () => {
    const written: number[] = [];
    const queue = new WriteQueue(
      async (item: number) => void written.push(item),
      (item) => ({ item }),
      recordingLog().log,
      policy,
    );
    expect(await queue.submit(1)).toEqual({ status: 'written', result: undefined });
    expect(written).toEqual([1]);
  });

  it('queues while the database is unreachable, logs it, and drains in order when it returns', async () => {
    let down = true;
    const written: number[] = [];
    const { log, lines } = recordingLog();
    const clock = new ManualClock();
    const queue = new WriteQueue(
      async (item: number) => {
        if (down) throw unreachable();
        written.push(item);
      },
      (item) => ({ item }),
      log,
      policy,
      { clock },
    );
    expect(await queue.submit(1)).toEqual({ status: 'queued' });
    expect(await queue.submit(2)).toEqual({ status: 'queued' });
    expect(queue.size).toBe(2);
    expect(lines[0]).toMatchObject({ level: 'warn', data: { item: 1 } });
    down = false;
    await retryDue(clock, queue);
    expect(queue.size).toBe(0);
    expect(written).toEqual([1, 2]);
    expect(lines.at(-1)).toMatchObject({ level: 'info', data: { written: 2 } });
    await queue.stop();
  });

  it('backs off exponentially up to the maximum delay', async () => {
    const attempts: number[] = [];
    const clock = new ManualClock();
    const queue = new WriteQueue(
      async () => {
        attempts.push(clock.now());
        throw unreachable();
      },
      () => ({}),
      recordingLog().log,
      policy,
      { clock },
    );
    await queue.submit(1);
    for (let retry = 0; retry < 5; retry += 1) await retryDue(clock, queue);
    const gaps = attempts.slice(1).map((at, index) => at - (attempts[index] ?? at));
    // 5 ms doubling to the 40 ms cap.
    expect(gaps).toEqual([5, 10, 20, 40, 40]);
    await queue.stop();
  });

  it('drops the oldest message beyond capacity, with an error in the log', async () => {
    const { log, lines } = recordingLog();
    const queue = new WriteQueue(
      async () => {
        throw unreachable();
      },
      (item: number) => ({ item }),
      log,
      { ...policy, initialDelayMs: 60_000 },
    );
    for (const item of [1, 2, 3, 4]) await queue.submit(item);
    expect(queue.size).toBe(3);
    expect(lines.find((line) => line.level === 'error')).toMatchObject({ data: { item: 1, capacity: 3 } });
    await queue.stop();
    expect(lines.at(-1)).toMatchObject({ level: 'error', data: { lost: 3 } });
  });

  it('hands a non-transient error straight to the caller', async () => {
    const queue = new WriteQueue(
      async () => {
        throw Object.assign(new Error('Data too long'), { code: 'ER_DATA_TOO_LONG' });
      },
      () => ({}),
      recordingLog().log,
      policy,
    );
    await expect(queue.submit(1)).rejects.toThrow('Data too long');
    expect(queue.size).toBe(0);
  });
});
