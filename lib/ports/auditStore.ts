import type { AuditRecord } from '../domain/index.js';
import type { OrganizationScope } from './organizationScope.js';
import type { Page, PageOptions } from './paging.js';

export interface AuditFilter extends OrganizationScope {
  /** the actor's id or name */
  actor?: string;
  entity_type?: string;
  entity_id?: string;
  /** ISO date-times bounding `at`: `since` inclusive, `until` exclusive, compared in UTC */
  since?: string;
  until?: string;
}

/**
 * The audit trail: append-only records of changes (lib/domain/audit.ts). Records are validated with
 * AuditRecordSchema on the way in (a ZodError is thrown as is) and never updated; only retention deletes them
 * (`deleteAuditRecords`, by age).
 */
export interface AuditStore {
  /** appends a record; ConflictError when a record with its id exists */
  createAuditRecord(record: AuditRecord): Promise<AuditRecord>;
  /** newest first (`at`, then id, descending), paged with exact totals */
  listAuditRecords(filter?: AuditFilter, options?: PageOptions): Promise<Page<AuditRecord>>;
  /**
   * Retention: deletes up to `limit` (default 1,000) records matching `filter` (`until` required: records at or
   * after it are never touched) and returns how many; call until 0. Idempotent and resumable.
   */
  deleteAuditRecords(filter: AuditFilter & { until: string }, options?: { limit?: number }): Promise<number>;
}
