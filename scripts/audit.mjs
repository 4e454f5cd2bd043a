#!/usr/bin/env node
// The dependency audit `npm test` runs: `npm audit --omit=dev` against a reviewed allow-list
// (security/audit-allow.json). A reported advisory that the list does not accept fails, and so does an
// accepted one whose review date has passed. When the registry's audit endpoint cannot be asked, a notice
// says the audit did not run, and ANIMA_REQUIRE_AUDIT=1 makes that a failure (the build machines' registry
// proxy refuses the endpoint, so CI cannot require it). Plain JavaScript: it runs before the
// type-check. Options: --allow-list <file>.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const say = (message) => process.stdout.write(`[audit] ${message}\n`);

/** The advisory's GHSA id from its URL (`https://github.com/advisories/GHSA-…`), else npm's number. */
function advisoryId(via) {
  const ghsa = /GHSA(?:-[0-9a-z]{4}){3}/i.exec(via.url ?? '');
  return ghsa ? ghsa[0] : String(via.source);
}

/** Every advisory an `npm audit --json` report names, by id, with the packages it reaches. */
function reportedAdvisories(report) {
  const found = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== 'object' || via === null) continue;
      const id = advisoryId(via);
      const entry = found.get(id) ?? { id, title: via.title ?? '', severity: via.severity ?? '', url: via.url ?? '', packages: new Set() };
      entry.packages.add(via.name ?? vulnerability.name);
      found.set(id, entry);
    }
  }
  return [...found.values()];
}

/** The allow-list's entries, checked: each needs an id, a reason and a review date. */
function readAllowList(path) {
  const list = JSON.parse(readFileSync(path, 'utf8'));
  const entries = list.advisories ?? [];
  for (const entry of entries) {
    if (typeof entry.id !== 'string' || typeof entry.reason !== 'string' || entry.reason.trim() === '' || Number.isNaN(Date.parse(entry.review_by))) {
      throw new Error(`${path}: every advisory needs "id", "reason" and "review_by" (YYYY-MM-DD): ${JSON.stringify(entry)}`);
    }
  }
  return entries;
}

/** What the report and the list say together: advisories to fix, acceptances to review again, stale ones. */
function judge(reported, allowed, today) {
  const byId = new Map(allowed.map((entry) => [entry.id.toUpperCase(), entry]));
  const fresh = reported.filter((advisory) => !byId.has(advisory.id.toUpperCase()));
  const expired = reported.flatMap((advisory) => {
    const entry = byId.get(advisory.id.toUpperCase());
    return entry && Date.parse(entry.review_by) < today ? [entry] : [];
  });
  const reportedIds = new Set(reported.map((advisory) => advisory.id.toUpperCase()));
  const stale = allowed.filter((entry) => !reportedIds.has(entry.id.toUpperCase()));
  return { fresh, expired, stale };
}

function runAudit() {
  const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  try {
    return { report: JSON.parse(result.stdout) };
  } catch {
    return { failure: (result.stderr || result.stdout || `npm exited with ${result.status}`).trim().split('\n').slice(-3).join(' ') };
  }
}

/** An answer that is an error of the endpoint (npm prints `{message, statusCode, …}` or `{error: …}`), not a report. */
function endpointFailure(report) {
  if (report.auditReportVersion !== undefined || report.vulnerabilities !== undefined) return undefined;
  return report.message ?? report.error?.summary ?? JSON.stringify(report).slice(0, 200);
}

function main() {
  const at = process.argv.indexOf('--allow-list');
  const allowPath = at === -1 ? join(root, 'security', 'audit-allow.json') : process.argv[at + 1];
  const allowed = readAllowList(allowPath);
  const { report, failure } = runAudit();
  const unreachable = failure ?? endpointFailure(report);
  if (unreachable) {
    const message = `npm audit could not ask the registry's advisory endpoint (${unreachable})`;
    if (process.env.ANIMA_REQUIRE_AUDIT === '1') {
      say(`FAILED: ${message}; ANIMA_REQUIRE_AUDIT=1 requires the audit`);
      return 1;
    }
    say(`NOTICE: ${message}; the audit did not run here (ANIMA_REQUIRE_AUDIT=1 makes this fail)`);
    return 0;
  }
  const { fresh, expired, stale } = judge(reportedAdvisories(report), allowed, Date.now());
  for (const entry of stale) say(`notice: ${entry.id} is accepted in ${allowPath} but no longer reported; remove it`);
  for (const advisory of fresh) {
    say(`NEW ADVISORY ${advisory.id} (${advisory.severity}) in ${[...advisory.packages].join(', ')}: ${advisory.title} ${advisory.url}`);
  }
  for (const entry of expired) say(`REVIEW DUE ${entry.id}: accepted until ${entry.review_by} (${entry.reason}); review it again or fix it`);
  if (fresh.length > 0 || expired.length > 0) {
    say(`FAILED: fix the dependency (npm audit fix, an update) or accept it in ${allowPath} with a reason and a review date`);
    return 1;
  }
  say(`production dependencies: no advisory beyond the ${allowed.length - stale.length} accepted in ${allowPath}`);
  return 0;
}

process.exit(main());
