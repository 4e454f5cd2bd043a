#!/usr/bin/env node
// `npm test`: prepares what the tests need on a Debian-like machine, then type-checks and runs vitest.
// Plain JavaScript on purpose: it must run before `node_modules` exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const say = (message) => process.stdout.write(`[test] ${message}\n`);
const fail = (message) => {
  process.stderr.write(`[test] ${message}\n`);
  process.exit(1);
};

/** What the tests use from Debian (a program on PATH, or a file), and the package that provides it. */
const DEBIAN_TOOLS = [
  { command: 'openssl', pkg: 'openssl' },
  { command: 'chromium', pkg: 'chromium' },
  { command: 'ffmpeg', pkg: 'ffmpeg' },
  { command: 'pocketsphinx_continuous', pkg: 'pocketsphinx' },
  // The English model of the offline speech-to-text tests; a data package with no program of its own.
  { path: '/usr/share/pocketsphinx/model/en-us/en-us', pkg: 'pocketsphinx-en-us' },
  // The Prometheus project's parser of the metrics text format, which GET /api/metrics must satisfy.
  { path: '/usr/lib/python3/dist-packages/prometheus_client/parser.py', pkg: 'python3-prometheus-client' },
  // The radio tests' web-broadcaster harbor (input.harbor), as AzuraCast runs it.
  { command: 'liquidsoap', pkg: 'liquidsoap' },
  // The terminal the command-line client (npm run chat) is tested in.
  { command: 'tmux', pkg: 'tmux' },
];

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const present = (tool) => (tool.path ? existsSync(tool.path) : onPath(tool.command));
const isRoot = process.getuid?.() === 0;

function ensureDebianTools() {
  const missing = [...new Set(DEBIAN_TOOLS.filter((tool) => !present(tool)).map((tool) => tool.pkg))];
  if (missing.length === 0) return;
  if (!isRoot || !onPath('apt-get')) fail(`missing programs; install them with: sudo apt-get install -y ${missing.join(' ')}`);
  say(`installing ${missing.join(' ')} with apt-get`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && readFileSync(installed, 'utf8').length > 0 && existsSync(join(root, 'node_modules', 'vitest'))) return;
  say('installing npm packages (npm ci)');
  execFileSync('npm', [existsSync(lock) ? 'ci' : 'install'], { cwd: root, stdio: 'inherit' });
}

function reachable(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Makes MYSQL_TEST_URL point at a running MariaDB, starting the local one when it is down. */
async function prepareMariaDb() {
  const url = new URL(process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/test');
  const host = url.hostname;
  const port = Number(url.port || 3306);
  let up = await reachable(host, port);
  if (!up && isRoot && existsSync('/usr/sbin/mariadbd') && (host === '127.0.0.1' || host === 'localhost')) {
    say('starting the local MariaDB');
    spawnSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/mariadbd'], { stdio: 'inherit' });
    for (let attempt = 0; attempt < 60 && !up; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      up = await reachable(host, port);
    }
  }
  if (up) {
    process.env.MYSQL_TEST_URL = url.toString();
    say(`MariaDB suites run against ${host}:${port}`);
    return;
  }
  delete process.env.MYSQL_TEST_URL;
  if (process.env.ANIMA_REQUIRE_MYSQL === '1') fail(`MariaDB is required (ANIMA_REQUIRE_MYSQL=1) but nothing answers on ${host}:${port}`);
  say(`NOTICE: no MariaDB on ${host}:${port}; the MySQL suites are skipped (install mariadb-server to run them)`);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

/** The plain closing line CI reads: `tests: N passed, N failed, N skipped`. */
function summarise(reportPath) {
  if (!existsSync(reportPath)) return;
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  process.stdout.write(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped\n`);
}

ensureDebianTools();
ensureNodeModules();
await prepareMariaDb();

// Production dependencies against the reviewed allow-list (a notice where the registry cannot be asked).
say('auditing the production dependencies (npm audit --omit=dev, security/audit-allow.json)');
if (run('node', ['scripts/audit.mjs']) !== 0) fail('dependency audit failed: see the advisories above (docs/security.md says what to do)');

say('checking format and lint (npm run fix mends what it can)');
if (run('npx', ['biome', 'check', '.']) !== 0) fail('format or lint errors: run `npm run fix`, then fix what remains by hand');

say('type-checking');
if (run('npx', ['tsc', '--noEmit', '-p', '.']) !== 0) fail('type errors');
// The browser client has its own tsconfig (DOM types); the root one excludes it.
if (run('npx', ['tsc', '--noEmit', '-p', 'src/webui']) !== 0) fail('type errors in the web UI');

mkdirSync(join(root, 'tmp'), { recursive: true });
const reportPath = join(root, 'tmp', 'vitest-report.json');
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportPath}`, ...process.argv.slice(2)]);
summarise(reportPath);
process.exit(status);
