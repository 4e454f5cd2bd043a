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

export type About = ReturnType<typeof buildAbout>;

function buildAbout(services: Services, now: number) {
  return {
    name: 'Anima',
    version: services.runtime.version,
    started_at: services.runtime.startedAt.toISOString(),
    uptime_s: Math.round((now - services.runtime.startedAt.getTime()) / 1000),
    active_sessions: services.gate.openCount(),
    session_tokens: services.trust.tokens.activeCount(),
    ports: { ...services.runtime.ports },
    // reachable: false while chat history writes wait for the database (held, written when it returns).
    database: { dialect: services.database.dialect, ...services.history.chat.databaseStatus },
    // Memory and load come from /proc; one reading a second is plenty for a status page.
    system: { ...staticSystem, free_memory_bytes: os.freemem(), rss_bytes: process.memoryUsage.rss(), load_average: os.loadavg() },
  };
}

const cache = new WeakMap<Services, { second: number; sessions: number; tokens: number; ports: string; database: string; about: About }>();

/**
 * The status figures have a resolution of one second, so one answer serves every request of the same
 * second unless the sessions, ports or the database's reachability changed meanwhile.
 */
export function describeAbout(services: Services): About {
  const now = services.clock.now();
  const second = Math.floor(now / 1000);
  const sessions = services.gate.openCount();
  const tokens = services.trust.tokens.activeCount();
  const ports = JSON.stringify(services.runtime.ports);
  const { reachable, pending_writes } = services.history.chat.databaseStatus;
  const database = `${reachable}:${pending_writes}`;
  const cached = cache.get(services);
  if (cached && cached.second === second && cached.sessions === sessions && cached.tokens === tokens && cached.ports === ports && cached.database === database)
    return cached.about;
  const about = buildAbout(services, now);
  cache.set(services, { second, sessions, tokens, ports, database, about });
  return about;
}
