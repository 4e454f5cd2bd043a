import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = join(ROOT, 'src', 'components', 'contract.ts');

function typeScriptFiles(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : typeScriptFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports or re-exports, type-only ones included: relative ones resolved to paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => (specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier));
}

const shown = (path: string) => relative(ROOT, path);

/** Strongly connected groups of more than one file (or a file importing itself): the import cycles. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, indexOf.get(next) ?? 0));
    }
    if (low.get(node) !== indexOf.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.map(shown).sort());
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return cycles;
}

describe('the boundary between the host and its components', () => {
  it('lets a component import nothing of src/ but the component contract', () => {
    const components = ['interface', 'interface_dev', 'plugins', 'plugins_dev', 'cortex'].flatMap((folder) => typeScriptFiles(join(ROOT, folder)));
    expect(components.length).toBeGreaterThan(5);
    const violations = components.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(join(ROOT, 'src')) && target !== CONTRACT)
        .map((target) => `${shown(file)} imports ${shown(target)}`),
    );
    expect(violations).toEqual([]);
  });

  it('keeps src/components free of the chain, the body, the transports and Fastify', () => {
    const forbidden = ['chain', 'body', 'http', 'realtime', 'compat', 'chat', 'audio'].map((folder) => join(ROOT, 'src', folder));
    const violations = typeScriptFiles(join(ROOT, 'src', 'components')).flatMap((file) =>
      importsOf(file)
        .filter((target) => forbidden.some((folder) => target.startsWith(`${folder}/`)) || /^(fastify|@fastify\/|ws$)/.test(target))
        .map((target) => `${shown(file)} imports ${target.startsWith('/') ? shown(target) : target}`),
    );
    expect(violations).toEqual([]);
  });

  it('has no import cycle in src/', () => {
    const files = typeScriptFiles(join(ROOT, 'src'));
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => target.endsWith('.ts'))]));
    expect(cyclesOf(graph)).toEqual([]);
  });
});
