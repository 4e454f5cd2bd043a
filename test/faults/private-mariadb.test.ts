import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { privateMariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from '../helpers/private-mariadb.ts';

/**
 * The fault tests start MariaDB servers of their own while other suites query the shared one. A server
 * deletes every `#sql*` file in its tmpdir when it bootstraps and when it starts. In the default tmpdir,
 * those files are the shared server's temporary tables, in use by its running queries, which then fail.
 */
describe.skipIf(!privateMariaDbAvailable)("a test's own MariaDB", () => {
  const sharedTable = join(tmpdir(), `#sql-temptable-anima-${process.pid}.MAI`);
  let database: PrivateMariaDb | undefined;
  afterEach(async () => {
    await database?.destroy();
    await rm(sharedTable, { force: true });
  });

  it('leaves the temporary tables in the default tmpdir alone when it is created, started and restarted', async () => {
    await writeFile(sharedTable, '');
    database = await startPrivateMariaDb();
    await database.stop();
    await database.start();
    expect(await database.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(existsSync(sharedTable)).toBe(true);
  });
});
