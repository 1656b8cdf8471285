import { organizationCondition } from './cosmosOrganization.js';
import type { Container } from '@azure/cosmos';
import type { z } from 'zod';
import {
  type EntityListOptions,
  type EntityStore,
  NotFoundError,
  type OrganizationScope,
  type Page,
  pageOf,
  type WithEtag,
} from '../../ports/index.js';
import { readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow, queryWindow } from './cosmosPaging.js';

/** An entity as stored in the `entities` container (partition key /kind). */
interface EntityDocument {
  id: string;
  kind: string;
  entity_id: string;
  body: unknown;
  /** the entity has an `owner` (an /api/evaluate job's suite or target): `list({ hideOwned })` leaves it out */
  owned?: boolean;
  _etag?: string;
}

/**
 * An EntityStore (suites, tool catalogs, targets, clients) on the `entities` container, one logical partition
 * per kind. Entities are validated with `schema` on the way in (a ZodError is thrown as is, nothing is written)
 * and on the way out; a `_etag` passed back from a read is dropped. `list` is ordered by id.
 */
export class CosmosEntityStore<T extends { id: string }> implements EntityStore<T> {
  constructor(
    private readonly container: Container,
    /** the entity kind, also its name in error messages: `suite`, `tool_catalog`, `target`, `client` */
    private readonly kind: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  async create(entity: T): Promise<WithEtag<T>> {
    const doc = this.toDocument(entity);
    try {
      return this.fromDocument((await this.container.items.create<EntityDocument>(doc)).resource!);
    } catch (error) {
      throw toStoreError(error, this.kind, doc.entity_id);
    }
  }

  async upsert(entity: T): Promise<WithEtag<T>> {
    const doc = this.toDocument(entity);
    return this.fromDocument((await this.container.items.upsert<EntityDocument>(doc)).resource!);
  }

  async get(id: string): Promise<WithEtag<T> | undefined> {
    const doc = await readOrUndefined(this.container.item(toCosmosId(id), this.kind).read<EntityDocument>());
    return doc && this.fromDocument(doc);
  }

  async replace(entity: T, options: { ifMatch?: string } = {}): Promise<WithEtag<T>> {
    const doc = this.toDocument(entity);
    try {
      const { resource } = await this.container
        .item(doc.id, this.kind)
        .replace<EntityDocument>(doc, options.ifMatch ? { accessCondition: { type: 'IfMatch', condition: options.ifMatch } } : {});
      if (!resource) throw new NotFoundError(this.kind, doc.entity_id);
      return this.fromDocument(resource);
    } catch (error) {
      throw toStoreError(error, this.kind, doc.entity_id);
    }
  }

  async delete(id: string): Promise<void> {
    try {
      await this.container.item(toCosmosId(id), this.kind).delete();
    } catch (error) {
      if (toStoreError(error, this.kind, id) instanceof NotFoundError) return;
      throw error;
    }
  }

  async list(options: EntityListOptions & OrganizationScope = {}): Promise<Page<WithEtag<T>>> {
    const window = pageWindow(options);
    const parameters = [{ name: '@kind', value: this.kind }];
    let where = ' WHERE c.kind = @kind';
    if (options.hideOwned) where += ' AND (NOT IS_DEFINED(c.owned) OR c.owned = false)';
    if (options.organization !== undefined) {
      parameters.push({ name: '@org', value: options.organization });
      where += ` AND ${organizationCondition('c.body.organization', '@org', options.organization)}`;
    }
    const query = { where, parameters, orderBy: 'c.entity_id', partitionKey: this.kind };
    const { docs, total } = await queryWindow<EntityDocument>(this.container, query, window);
    return pageOf(
      docs.map((doc) => this.fromDocument(doc)),
      total,
      window,
    );
  }

  private toDocument(entity: T): EntityDocument {
    const { _etag, ...rest } = entity as T & { _etag?: string };
    const valid = this.schema.parse(rest);
    const owned = typeof valid === 'object' && valid !== null && (valid as { owner?: unknown }).owner !== undefined;
    return { id: toCosmosId(valid.id), kind: this.kind, entity_id: valid.id, body: valid, ...(owned ? { owned: true } : {}) };
  }

  private fromDocument(doc: EntityDocument): WithEtag<T> {
    return { ...this.schema.parse(doc.body), _etag: doc._etag ?? '' };
  }
}
