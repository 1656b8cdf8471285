import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './sqlite.js';

/**
 * Prepared statements by SQL text, for queries whose text depends on which filters are set (a bounded set of
 * shapes: values always go in parameters).
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(private readonly db: SqliteDatabase) {}

  get<Row>(sql: string): Statement<unknown[], Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement as Statement<unknown[], Row>;
  }
}
