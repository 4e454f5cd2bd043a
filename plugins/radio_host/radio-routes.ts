import { z } from 'zod';
import { type ActivityPort, type ComponentRoute, ComponentRouteError } from '../../src/components/contract.ts';
import type { RadioAudioFolder } from './audio-folder.ts';
import { ACTIVITY_PREFIX, type RadioHost } from './radio-host.ts';

/** The contract's limit of `activity` in `GET /api/radio/data`. */
const ACTIVITY_LIMIT = 50;

const AudioQuerySchema = z.union([z.object({ id: z.coerce.number().int().positive() }).strict(), z.object({ path: z.string().min(1).max(4096) }).strict()]);

const pathOf = (data: unknown): string | undefined => {
  const path = (data as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
};

const audioIdOf = (kind: string, id: number, data: unknown): number | null => {
  if (kind === 'banter_ready') return id;
  const audioId = (data as { audio_id?: unknown } | null)?.audio_id;
  return typeof audioId === 'number' ? audioId : null;
};

/** `GET /api/radio/data` and `GET /api/radio/audio`, exactly as the contract's "Radio" section says. */
export function radioRoutes(host: RadioHost, activity: ActivityPort, folder: RadioAudioFolder): ComponentRoute[] {
  const recentActivity = async () =>
    (await activity.recent(ACTIVITY_PREFIX, ACTIVITY_LIMIT)).map((entry) => {
      const kind = entry.kind.slice(ACTIVITY_PREFIX.length);
      return { id: entry.id, time: entry.time, kind, message: entry.message, audio_id: audioIdOf(kind, entry.id, entry.data) };
    });

  const serve = async (requested: string) => {
    const found = await folder.lookup(requested);
    if (found.found) return { file: { path: found.path, contentType: found.contentType } };
    if (found.reason === 'forbidden') throw new ComponentRouteError(403, 'forbidden', 'Only files inside the radio audio folder are served');
    throw new ComponentRouteError(404, 'not_found', 'No such banter audio file');
  };

  return [
    {
      method: 'GET',
      path: '/api/radio/data',
      summary: 'Radio host status, the station (now playing, next) and the latest 50 activity entries, newest first',
      handle: async () => ({ body: { status: host.status(), station: host.station(), activity: await recentActivity() } }),
    },
    {
      method: 'GET',
      path: '/api/radio/audio',
      summary: 'A banter audio file: ?id=<audio_id> from the activity, or ?path= inside the radio audio folder',
      handle: async ({ query }) => {
        const parsed = AudioQuerySchema.safeParse(query);
        if (!parsed.success) throw new ComponentRouteError(400, 'invalid_request', 'Give either id (a positive integer) or path');
        if ('path' in parsed.data) return serve(parsed.data.path);
        const entry = await activity.find(parsed.data.id);
        const path = entry?.kind === `${ACTIVITY_PREFIX}banter_ready` ? pathOf(entry.data) : undefined;
        if (!path) throw new ComponentRouteError(404, 'not_found', `No banter audio with id ${parsed.data.id}`);
        return serve(path);
      },
    },
  ];
}
