import os from 'node:os';
import type { Services } from '../services.ts';

/** Facts that do not change while the process runs, computed once. */
const staticSystem = {
  node: process.version,
  platform: process.platform,
  arch: process.arch,
  hostname: os.hostname(),
  cpus: os.availableParallelism(),
  total_memory_bytes: os.totalmem(),
};

export function describeAbout(services: Services) {
  const now = Date.now();
  return {
    name: 'Anima',
    version: services.runtime.version,
    started_at: services.runtime.startedAt.toISOString(),
    uptime_s: Math.round((now - services.runtime.startedAt.getTime()) / 1000),
    active_sessions: services.gate.openCount(),
    session_tokens: services.trust.tokens.activeCount(),
    ports: services.runtime.ports,
    database: { dialect: services.database.dialect },
    system: {
      ...staticSystem,
      pid: process.pid,
      free_memory_bytes: os.freemem(),
      rss_bytes: process.memoryUsage.rss(),
      load_average: os.loadavg(),
    },
  };
}
