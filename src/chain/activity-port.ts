import type { ActivityPort, ActivityRecord } from '../components/contract.ts';
import type { ActivityLogRepository } from '../db/repositories/activity-log.ts';
import type { ActivityEntry } from '../db/schema.ts';

const recordOf = (entry: ActivityEntry): ActivityRecord => ({
  id: entry.id,
  time: entry.created_at,
  kind: entry.kind,
  message: entry.message,
  data: entry.data,
});

/** The activity log as components record and read it (the `activity` service). */
export function activityPort(repository: ActivityLogRepository): ActivityPort {
  return {
    record: (kind, message, data) => repository.add(kind, message, data),
    recent: async (kindPrefix, limit) => (await repository.list({ kindPrefix, limit })).map(recordOf),
    find: async (id) => {
      const entry = await repository.find(id);
      return entry && recordOf(entry);
    },
  };
}
