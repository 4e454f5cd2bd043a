import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * `tsx bench/lib/folded-stacks.ts <file.cpuprofile> [--from µs] [--to µs] [--min-us n]`: a V8 CPU profile
 * (`node --cpu-prof`) as folded stacks, `root;caller;callee <µs>` a line, heaviest first, for a flame
 * graph tool (speedscope, inferno, flamegraph.pl) or for reading as it is. `--from`/`--to` keep the samples
 * between two instants of the profiled process's `process.hrtime` (µs), as bench/compat.ts prints them;
 * `--min-us` leaves out the lighter stacks (their sum is one `(lighter stacks)` line), to keep the file small.
 */

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const repository = fileURLToPath(new URL('../../', import.meta.url));

function frameName({ functionName, url }: CallFrame): string {
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const where = url.startsWith('file://') ? relative(repository, fileURLToPath(url.replace(/\?.*$/, ''))) : url;
  return `${name} ${where.replace(/^node_modules\//, '')}`;
}

function foldedStacks(profile: CpuProfile, window: { from: number; to: number }, minMicros: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stacks = new Map<number, string>();
  const stackOf = (id: number): string => {
    let stack = stacks.get(id);
    if (stack === undefined) {
      const frames: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
        const node = byId.get(at);
        if (node && node.callFrame.functionName !== '(root)') frames.unshift(frameName(node.callFrame));
      }
      stack = frames.join(';');
      stacks.set(id, stack);
    }
    return stack;
  };
  const weights = new Map<string, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    // A sample stands for the time until the next one.
    const weight = profile.timeDeltas[index + 1] ?? 0;
    if (time < window.from || time > window.to || byId.get(id)?.callFrame.functionName === '(idle)') return;
    const stack = stackOf(id);
    weights.set(stack, (weights.get(stack) ?? 0) + weight);
  });
  const sorted = [...weights].sort((a, b) => b[1] - a[1]);
  const kept = sorted.filter(([, micros]) => micros >= minMicros);
  const lighter = sorted.reduce((sum, [, micros]) => (micros < minMicros ? sum + micros : sum), 0);
  return [...kept, ...(lighter > 0 ? [['(lighter stacks)', lighter] as const] : [])].map(([stack, micros]) => `${stack} ${Math.round(micros)}`);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string', default: '0' }, to: { type: 'string', default: 'Infinity' }, 'min-us': { type: 'string', default: '0' } },
});
const [file] = positionals;
if (!file) {
  process.stderr.write('usage: tsx bench/lib/folded-stacks.ts <file.cpuprofile> [--from µs] [--to µs] [--min-us n]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const window = { from: Number(values.from), to: Number(values.to) };
process.stdout.write(`${foldedStacks(profile, window, Number(values['min-us'])).join('\n')}\n`);
