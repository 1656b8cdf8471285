import type { Organization } from '../domain/index.js';
import { NotFoundError, type EntityStore, type Page, type PageOptions, type WithEtag } from '../ports/index.js';
import type { Ownership } from './ownership.js';

/**
 * The organizations store as one organization sees it: only itself (it may read and replace its own record, e.g.
 * its budget). Creating or deleting organizations is the platform operator's, through the unscoped store.
 */
export class ScopedOrganizationStore implements EntityStore<Organization> {
  constructor(
    private readonly inner: EntityStore<Organization>,
    private readonly scope: Ownership,
  ) {}

  create(entity: Organization): Promise<WithEtag<Organization>> {
    return Promise.reject(new NotFoundError('organization', entity.id));
  }

  async upsert(entity: Organization): Promise<WithEtag<Organization>> {
    if (entity.id !== this.scope.organization) throw new NotFoundError('organization', entity.id);
    return this.inner.upsert(entity);
  }

  async get(id: string): Promise<WithEtag<Organization> | undefined> {
    return id === this.scope.organization ? this.inner.get(id) : undefined;
  }

  async replace(entity: Organization, options?: { ifMatch?: string }): Promise<WithEtag<Organization>> {
    if (entity.id !== this.scope.organization) throw new NotFoundError('organization', entity.id);
    return this.inner.replace(entity, options);
  }

  async delete(id: string): Promise<void> {
    if (id !== this.scope.organization) return;
    throw new NotFoundError('organization', id);
  }

  async list(options: PageOptions = {}): Promise<Page<WithEtag<Organization>>> {
    const own = await this.get(this.scope.organization);
    const limit = options.limit ?? 50;
    const offset = options.offset ?? 0;
    const items = own && offset === 0 ? [own] : [];
    return { items, total: own ? 1 : 0, has_more: false, limit, offset };
  }
}
