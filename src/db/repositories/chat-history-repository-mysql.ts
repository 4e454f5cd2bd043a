import { sql, type Kysely } from 'kysely';
import { codeOf } from '../driver-errors.ts';
import type { Database, NewChatHistoryRow } from '../schema.ts';

/** Versioned by name: a changed body gets a new name rather than an ALTER. */
export const SAVE_PROCEDURE = 'anima_chat_history_save_v1';

/**
 * Save-with-cleanup as one stored procedure: one round trip and one transaction instead of BEGIN,
 * INSERT, DELETE and COMMIT from the client, which on a fast disk costs four times the insert alone. The
 * explicit COLLATE keeps the byte-wise comparison of the column whatever the parameter's collation.
 */
const CREATE_PROCEDURE = sql.raw(`CREATE PROCEDURE IF NOT EXISTS ${SAVE_PROCEDURE}(
  IN p_path VARCHAR(512) CHARACTER SET utf8mb4, IN p_sender_name VARCHAR(255) CHARACTER SET utf8mb4,
  IN p_sender_id VARCHAR(255) CHARACTER SET utf8mb4, IN p_text LONGTEXT CHARACTER SET utf8mb4,
  IN p_timestamp DATETIME(6), IN p_keep INT)
MODIFIES SQL DATA
BEGIN
  DECLARE v_cutoff DATETIME(6) DEFAULT NULL;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  IF EXISTS (SELECT 1 FROM chat_history WHERE interface_path = p_path COLLATE utf8mb4_bin AND timestamp = p_timestamp) THEN
    COMMIT;
    SELECT 0 AS inserted;
  ELSE
    INSERT INTO chat_history (interface_path, sender_name, sender_id, message_text, timestamp)
      VALUES (p_path, p_sender_name, p_sender_id, p_text, p_timestamp);
    SELECT timestamp INTO v_cutoff FROM chat_history WHERE interface_path = p_path COLLATE utf8mb4_bin
      ORDER BY timestamp DESC LIMIT 1 OFFSET p_keep;
    IF v_cutoff IS NOT NULL THEN
      DELETE FROM chat_history WHERE interface_path = p_path COLLATE utf8mb4_bin AND timestamp <= v_cutoff;
    END IF;
    COMMIT;
    SELECT 1 AS inserted;
  END IF;
END`);

/** Thrown when the procedure is gone (a database restored from a table-only dump); the caller falls back. */
export class ProcedureMissingError extends Error {}

export class MysqlChatProcedure {
  private installed = false;

  constructor(private readonly db: Kysely<Database>) {}

  get available(): boolean {
    return this.installed;
  }

  /**
   * Creates the procedure when missing. False when this account may not (no CREATE ROUTINE) or the
   * server predates `CREATE PROCEDURE IF NOT EXISTS` (MySQL < 8.0.29): saves then use a client transaction.
   */
  async install(): Promise<boolean> {
    try {
      await CREATE_PROCEDURE.execute(this.db);
      this.installed = true;
    } catch {
      this.installed = false;
    }
    return this.installed;
  }

  async saveAndTrim(row: NewChatHistoryRow, keep: number): Promise<boolean> {
    try {
      const result =
        await sql<unknown>`CALL ${sql.raw(SAVE_PROCEDURE)}(${row.interface_path}, ${row.sender_name}, ${row.sender_id}, ${row.message_text}, ${row.timestamp}, ${keep})`.execute(
          this.db,
        );
      // mysql2 answers a CALL with [result set, OK packet].
      const [resultSet] = result.rows as unknown as [Array<{ inserted: number | string }>];
      return Number(resultSet[0]?.inserted) === 1;
    } catch (error) {
      if (codeOf(error) !== 'ER_SP_DOES_NOT_EXIST') throw error;
      this.installed = false;
      throw new ProcedureMissingError(SAVE_PROCEDURE, { cause: error });
    }
  }
}
