import { BulkOperationType, type Container, type SqlParameter } from '@azure/cosmos';
import { organizationCondition } from './cosmosOrganization.js';
import { AuditRecordSchema, type AuditRecord } from '../../domain/index.js';
import { type AuditFilter, type AuditStore, ConflictError, type Page, pageOf, type PageOptions } from '../../ports/index.js';
import { deleteLimit, utcIso } from '../shared/index.js';
import { assertBulk, bulkStatus, executeBulk, queryAll } from './cosmosBulk.js';
import { cosmosStatus } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow, queryWindow } from './cosmosPaging.js';

interface AuditDocument {
  id: string;
  record_id: string;
  at_utc: string;
  actor_id: string;
  actor_name: string;
  entity_type: string | null;
  entity_id: string | null;
  record: AuditRecord;
}

/** The audit trail on Cosmos DB (append-only; validated with AuditRecordSchema; newest first by `at` in UTC, then id). */
export class CosmosAuditStore implements AuditStore {
  constructor(private readonly container: Container) {}

  async createAuditRecord(record: AuditRecord): Promise<AuditRecord> {
    const valid = AuditRecordSchema.parse(record);
    const doc: AuditDocument = {
      id: toCosmosId(valid.id),
      record_id: valid.id,
      at_utc: utcIso(valid.at, 'at'),
      actor_id: valid.actor.id,
      actor_name: valid.actor.name,
      entity_type: valid.entity_type,
      entity_id: valid.entity_id,
      record: valid,
    };
    try {
      await this.container.items.create(doc);
    } catch (error) {
      if (cosmosStatus(error) === 409) throw new ConflictError('audit record', valid.id);
      throw error;
    }
    return valid;
  }

  async listAuditRecords(filter: AuditFilter = {}, options: PageOptions = {}): Promise<Page<AuditRecord>> {
    const window = pageWindow(options);
    const { where, parameters } = auditWhere(filter);
    const { docs, total } = await queryWindow<AuditDocument>(
      this.container,
      { where, parameters, orderBy: 'c.at_utc DESC, c.record_id DESC' },
      window,
    );
    return pageOf(
      docs.map((doc) => doc.record),
      total,
      window,
    );
  }

  async deleteAuditRecords(filter: AuditFilter & { until: string }, options: { limit?: number } = {}): Promise<number> {
    const { where, parameters } = auditWhere(filter);
    const ids = await queryAll<string>(this.container, {
      query: `SELECT TOP @limit VALUE c.id FROM c${where}`,
      parameters: [...parameters, { name: '@limit', value: deleteLimit(options.limit) }],
    });
    const results = await executeBulk(
      this.container,
      ids.map((id) => ({ operationType: BulkOperationType.Delete, id, partitionKey: id })),
    );
    assertBulk(results, (status) => status === 204 || status === 404);
    return results.filter((r) => bulkStatus(r) === 204).length;
  }
}

/** `since` inclusive, `until` exclusive, both compared in UTC; `actor` matches the actor's id or name. */
function auditWhere(filter: AuditFilter): { where: string; parameters: SqlParameter[] } {
  const conditions: string[] = [];
  const parameters: SqlParameter[] = [];
  const param = (value: string) => {
    const name = `@p${parameters.length}`;
    parameters.push({ name, value });
    return name;
  };
  if (filter.actor !== undefined) {
    const actor = param(filter.actor);
    conditions.push(`(c.actor_id = ${actor} OR c.actor_name = ${actor})`);
  }
  if (filter.organization !== undefined)
    conditions.push(organizationCondition('c.record.organization', param(filter.organization), filter.organization));
  if (filter.entity_type !== undefined) conditions.push(`c.entity_type = ${param(filter.entity_type)}`);
  if (filter.entity_id !== undefined) conditions.push(`c.entity_id = ${param(filter.entity_id)}`);
  if (filter.since !== undefined) conditions.push(`c.at_utc >= ${param(utcIso(filter.since, 'since'))}`);
  if (filter.until !== undefined) conditions.push(`c.at_utc < ${param(utcIso(filter.until, 'until'))}`);
  return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', parameters };
}
