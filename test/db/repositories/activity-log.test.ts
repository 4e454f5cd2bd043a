import { expect, it } from 'vitest';
import { activityPort } from '../../../src/chain/activity-port.ts';
import { ActivityLogRepository } from '../../../src/db/repositories/activity-log.ts';
import { describeEachDialect, useFreshDatabase } from '../../helpers/dialects.ts';

/** The activity log as components use it (the `activity` service): ids back, a kind prefix, one entry by id. */
describeEachDialect('the activity service', (dialect) => {
  const fresh = useFreshDatabase(dialect);

  it('returns the new row id, lists only kinds with the prefix (taken literally), newest first, and finds one entry', async () => {
    const activity = activityPort(new ActivityLogRepository(fresh.handle.db));
    const first = await activity.record('radio.track', 'Now playing A', { title: 'A' });
    await activity.record('radioXtrack', 'not radio: "." is no wildcard');
    await activity.record('radi_.track', 'not radio: "_" is no wildcard');
    await activity.record('config', 'unrelated');
    const second = await activity.record('radio.banter_ready', 'Banter ready', { path: '/tmp/x.wav' });
    expect(second).toBeGreaterThan(first);
    expect((await activity.recent('radio.', 10)).map((entry) => [entry.id, entry.kind])).toEqual([
      [second, 'radio.banter_ready'],
      [first, 'radio.track'],
    ]);
    expect(await activity.recent('radio.', 1)).toHaveLength(1);
    expect(await activity.find(second)).toMatchObject({ id: second, kind: 'radio.banter_ready', message: 'Banter ready', data: { path: '/tmp/x.wav' } });
    expect((await activity.find(first))?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await activity.find(second + 100)).toBeUndefined();
  });
});
