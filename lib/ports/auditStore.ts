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
 * AuditRecordSchema on the way in (a ZodError is thrown as is) and never updated or deleted through the port.
 */
export interface AuditStore {
  /** appends a record; ConflictError when a record with its id exists */
  createAuditRecord(record: AuditRecord): Promise<AuditRecord>;
  /** newest first (`at`, then id, descending), paged with exact totals */
  listAuditRecords(filter?: AuditFilter, options?: PageOptions): Promise<Page<AuditRecord>>;
}
