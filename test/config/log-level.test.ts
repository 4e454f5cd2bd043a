import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.ts';
import { createLogger, followLogLevel } from '../../src/logging.ts';

describe('LOGGING_LEVEL', () => {
  it('changes the log level at once when it is saved', async () => {
    const config = ConfigStore.fromSources({ environment: { LOGGING_LEVEL: 'warn' } });
    const { logger } = createLogger({ level: config.get('LOGGING_LEVEL'), pretty: false });
    followLogLevel(config, logger);
    expect(logger.level).toBe('warn');
    await config.set('LOGGING_LEVEL', 'debug');
    expect(logger.level).toBe('debug');
    expect(logger.isLevelEnabled('debug')).toBe(true);
  });
});
