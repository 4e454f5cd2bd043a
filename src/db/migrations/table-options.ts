import { sql, type CreateTableBuilder } from 'kysely';

/**
 * The dialects these migrations were written for, frozen apart from the live DialectName: a dialect added
 * later makes the factories' signature fail to type-check instead of silently running old migrations on it.
 */
export type MigrationDialect = 'sqlite' | 'mysql';

/** MySQL tables store full UTF-8 (emoji included) whatever the server's default character set. */
export function withDialectOptions(dialect: MigrationDialect) {
  return <T extends string, C extends string>(builder: CreateTableBuilder<T, C>): CreateTableBuilder<T, C> =>
    dialect === 'mysql' ? builder.modifyEnd(sql`ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`) : builder;
}
