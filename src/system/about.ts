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
  pid: process.pid,
};

const SAMPLE_INTERVAL_MS = 1000;
let sampled = { at: 0, values: { free_memory_bytes: 0, rss_bytes: 0, load_average: [0, 0, 0] } };

/** Memory and load come from /proc; one sample a second is plenty for a status page. */
function systemSample(now: number) {
  if (now - sampled.at >= SAMPLE_INTERVAL_MS) {
    sampled = { at: now, values: { free_memory_bytes: os.freemem(), rss_bytes: process.memoryUsage.rss(), load_average: os.loadavg() } };
  }
  return sampled.values;
}

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
    system: { ...staticSystem, ...systemSample(now) },
  };
}
