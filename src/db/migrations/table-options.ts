import { sql, type CreateTableBuilder } from 'kysely';
import type { DialectName } from '../schema.ts';

/** MySQL tables store full UTF-8 (emoji included) whatever the server's default character set. */
export function withDialectOptions(dialect: DialectName) {
  return <T extends string, C extends string>(builder: CreateTableBuilder<T, C>): CreateTableBuilder<T, C> =>
    dialect === 'mysql' ? builder.modifyEnd(sql`ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`) : builder;
}
