import { execFileSync } from 'node:child_process';

export interface PrometheusFamily {
  name: string;
  type: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

/** Debian's python3-prometheus-client: the Prometheus project's own parser of the text format. */
const PARSE = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
families = [{"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
            for f in text_string_to_metric_families(sys.stdin.read())]
print(json.dumps(families))
`;

/** Parses Prometheus text exposition with the reference parser; throws on text it refuses. */
export function parsePrometheusText(text: string): Map<string, PrometheusFamily> {
  const output = execFileSync('/usr/bin/python3', ['-c', PARSE], { input: text, encoding: 'utf8' });
  return new Map((JSON.parse(output) as PrometheusFamily[]).map((family) => [family.name, family]));
}
