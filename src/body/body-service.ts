import type { ConfigChange, ConfigStore } from '../config/store.ts';
import type { Logger } from '../logging.ts';
import { BodyServer } from './body-server.ts';
import type { Clock } from './clock.ts';
import { isSafeSegment } from './skin-files.ts';

/**
 * The process's body-state server: started on the configured skin, following ACTIVE_SKIN when it is
 * changed at run time. `stop` undoes both.
 */
export async function startBodyService(options: {
  config: ConfigStore;
  logger: Logger;
  skinsDir: string;
  clock: Clock;
}): Promise<{ body: BodyServer; stop: () => void }> {
  const { config, skinsDir, clock } = options;
  const logger = options.logger.child({ component: 'body' });
  const skinOf = (value: unknown) => {
    const skin = String(value);
    if (isSafeSegment(skin)) return skin;
    logger.warn({ skin }, 'ACTIVE_SKIN is not a folder name; using the default skin');
    return 'default';
  };
  const body = new BodyServer({ skinsDir, activeSkin: skinOf(config.get('ACTIVE_SKIN')), logger, clock });
  await body.start();
  const onChange = ({ key, value }: ConfigChange) => {
    if (key !== 'ACTIVE_SKIN') return;
    body.setActiveSkin(skinOf(value)).catch((error: unknown) => logger.error({ err: error }, 'switching the skin failed'));
  };
  config.on('change', onChange);
  return {
    body,
    stop: () => {
      config.off('change', onChange);
      body.stop();
    },
  };
}
