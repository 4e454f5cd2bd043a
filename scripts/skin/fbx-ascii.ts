/**
 * Serialises a tree of FBX nodes as ASCII FBX 7.4. Nesting is by tabs, which common parsers rely on,
 * and number arrays stay on one line so no reader has to join continuation lines.
 */

/** A bare token such as `Y` in `Shading: Y`, written without quotes. */
export interface Raw {
  raw: string;
}

export type FbxValue = string | number | Raw;

export interface FbxNode {
  name: string;
  values?: readonly FbxValue[];
  children?: readonly FbxNode[];
  /** Written as `*N { a: ... }`, the form of KeyTime, KeyValueFloat and other arrays. */
  array?: readonly number[];
}

export const raw = (value: string): Raw => ({ raw: value });

/** Integers as they are; other numbers with at most 4 decimals, and never `-0`. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const rounded = Number(value.toFixed(4));
  return rounded === 0 ? '0' : String(rounded);
}

function formatValue(value: FbxValue): string {
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return `"${value}"`;
  return value.raw;
}

/** A Properties70 entry: `P: "name", "type", "label", "flags", values...`. */
export function property(name: string, type: string, label: string, flags: string, ...values: number[]): FbxNode {
  return { name: 'P', values: [name, type, label, flags, ...values] };
}

export function properties(...entries: FbxNode[]): FbxNode {
  return { name: 'Properties70', children: entries };
}

/**
 * Numbers follow the previous value after a bare comma and strings after ", ", as FBX SDK files do;
 * readers split `P:` lines on `",` and would misread a space inside a number list.
 */
function formatValues(values: readonly FbxValue[]): string {
  return values.map((v, i) => (i === 0 ? '' : typeof v === 'number' ? ',' : ', ') + formatValue(v)).join('');
}

function writeNode(node: FbxNode, depth: number, out: string[]): void {
  const indent = '\t'.repeat(depth);
  if (node.array) {
    out.push(`${indent}${node.name}: *${node.array.length} {`);
    out.push(`${indent}\ta: ${node.array.map(formatNumber).join(',')}`);
    out.push(`${indent}}`);
    return;
  }
  const values = formatValues(node.values ?? []);
  if (!node.children) {
    out.push(`${indent}${node.name}: ${values}`);
    return;
  }
  out.push(`${indent}${node.name}: ${values} {`);
  for (const child of node.children) writeNode(child, depth + 1, out);
  out.push(`${indent}}`);
}

export function writeFbx(comment: readonly string[], nodes: readonly FbxNode[]): string {
  const out = comment.map((line) => `; ${line}`);
  out.push('');
  for (const node of nodes) writeNode(node, 0, out);
  return `${out.join('\n')}\n`;
}
