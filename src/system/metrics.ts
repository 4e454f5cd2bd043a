import { Gauge, Histogram, Registry } from 'prom-client';

/** The contract's stages, plus the ones components add (memory recall); a histogram each, in seconds. */
export const STAGES = ['stt', 'llm_first_token', 'llm_total', 'tts_first_audio', 'voice_loop', 'chain', 'memory_recall'] as const;
export type Stage = (typeof STAGES)[number];

/** From a few milliseconds (a recall) to a long answer. */
const STAGE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1, 2, 5, 10, 30, 60];

/**
 * The process's Prometheus metrics (`GET /api/metrics`): stage latencies as one histogram, and gauges
 * that read their value when scraped, so nothing counts on the hot path.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly stages = new Histogram({
    name: 'anima_stage_seconds',
    help: 'How long each stage of answering took, in seconds',
    labelNames: ['stage'],
    buckets: STAGE_BUCKETS,
    registers: [this.registry],
  });

  observeStage(stage: Stage, seconds: number): void {
    if (Number.isFinite(seconds) && seconds >= 0) this.stages.observe({ stage }, seconds);
  }

  private readonly gauges = new Map<string, Set<() => number>>();

  /**
   * Adds `read` to the gauge `name`, whose value at each scrape is the sum of its readers (two socket
   * hubs count into one `anima_ws_clients`). `read` must be cheap; the returned function removes it.
   */
  gauge(name: string, help: string, read: () => number): () => void {
    let readers = this.gauges.get(name);
    if (!readers) {
      const set = new Set<() => number>();
      readers = set;
      this.gauges.set(name, set);
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          let total = 0;
          for (const reader of set) total += reader();
          this.set(total);
        },
      });
    }
    readers.add(read);
    return () => void readers.delete(read);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
