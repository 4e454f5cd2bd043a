import { afterEach, describe, it } from 'vitest';
import { killMidWrite } from '../helpers/kill-mid-write.ts';
import { privateMariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from '../helpers/private-mariadb.ts';

describe.skipIf(!privateMariaDbAvailable)('the process killed mid-write [mysql, a MariaDB of its own]', () => {
  let database: PrivateMariaDb | undefined;
  afterEach(async () => database?.destroy());

  it('keeps every acknowledged history row, stored message and configuration save', async () => {
    database = await startPrivateMariaDb();
    await killMidWrite(database);
  });
});
