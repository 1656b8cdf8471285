import type { OrganizationScope } from './organizationScope.js';
import type { Page, PageOptions, WithEtag } from './paging.js';

/** List options of an entity store: paging, and `hideOwned` to leave out entities another resource owns (`owner` set). */
export interface EntityListOptions extends PageOptions {
  /** leave out entities with an `owner` (the suites and targets of /api/evaluate jobs); default false: all */
  hideOwned?: boolean;
}

/**
 * CRUD for an entity keyed by `id`, with Azure SDK verbs: `create` fails if present (ConflictError), `upsert`
 * creates or replaces, `get` returns undefined if missing, `replace` checks the ETag when given
 * (PreconditionFailedError), `delete` is idempotent. Suites, tool catalogs, targets and clients use it.
 */
export interface EntityStore<T extends { id: string }> {
  create(entity: T): Promise<WithEtag<T>>;
  upsert(entity: T): Promise<WithEtag<T>>;
  get(id: string): Promise<WithEtag<T> | undefined>;
  replace(entity: T, options?: { ifMatch?: string }): Promise<WithEtag<T>>;
  delete(id: string): Promise<void>;
  /** `organization`: only that organization's entities (a missing field counts as `default`) */
  list(options?: EntityListOptions & OrganizationScope): Promise<Page<WithEtag<T>>>;
}
