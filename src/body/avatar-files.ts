import { join } from 'node:path';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import type { BodyServer } from './body-server.ts';
import type { Clock } from './clock.ts';
import { CustomVrmStore } from './custom-vrm.ts';
import { UploadStore } from './upload-store.ts';

export interface AvatarFiles {
  /** Temporary animation uploads under `skins/temp/`, with their retention sweep. */
  uploads: UploadStore;
  /** Custom VRM models under `<backups>/vrm/`. */
  customVrm: CustomVrmStore;
  stop(): void;
}

/**
 * The files users give the avatar: registers the uploads already on disk, starts the retention sweep
 * (every COMPANION_UPLOAD_CLEANUP_INTERVAL_S, rescheduled when it changes) and shows the custom model
 * chosen earlier.
 */
export async function startAvatarFiles(options: {
  body: BodyServer;
  config: ConfigStore;
  logger: Logger;
  backups: string;
  clock?: Clock;
}): Promise<AvatarFiles> {
  const { body, config } = options;
  const logger = options.logger.child({ component: 'avatar-files' });
  const uploads = new UploadStore({
    body,
    logger,
    ttlDays: () => config.get('COMPANION_UPLOAD_TTL_DAYS'),
    promoteEnabled: () => config.get('COMPANION_PROMOTE_ENABLED'),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await uploads.start(config.get('COMPANION_UPLOAD_CLEANUP_INTERVAL_S') * 1000);
  const onChange = ({ key }: { key: string }) => {
    if (key === 'COMPANION_UPLOAD_CLEANUP_INTERVAL_S') uploads.sweepEvery(config.get('COMPANION_UPLOAD_CLEANUP_INTERVAL_S') * 1000);
  };
  config.on('change', onChange);
  const customVrm = new CustomVrmStore(body, join(options.backups, 'vrm'), logger);
  await customVrm.restore();
  return {
    uploads,
    customVrm,
    stop: () => {
      config.off('change', onChange);
      uploads.stop();
    },
  };
}
