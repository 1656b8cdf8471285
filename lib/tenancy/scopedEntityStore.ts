import { ConflictError, NotFoundError, type EntityListOptions, type EntityStore, type Page, type WithEtag } from '../ports/index.js';
import type { Ownership } from './ownership.js';

type Owned = { id: string; organization?: string | undefined };

/**
 * An EntityStore seen by one organization: writes are stamped with it, reads of another organization's id miss
 * (undefined, so routes answer 404), lists are filtered in the store's query (exact pages and totals) and checked
 * again here. Ids stay unique across the platform: creating an id another organization holds is a ConflictError
 * (409 "exists", without saying whose), and an upsert over it is refused the same way, never overwriting.
 */
export class ScopedEntityStore<T extends Owned> implements EntityStore<T> {
  constructor(
    private readonly inner: EntityStore<T>,
    private readonly scope: Ownership,
    private readonly kind: string,
  ) {}

  create(entity: T): Promise<WithEtag<T>> {
    return this.scope.written(this.inner.create(this.scope.stamp(entity)));
  }

  async upsert(entity: T): Promise<WithEtag<T>> {
    const existing = await this.inner.get(entity.id);
    if (existing && !this.scope.owns(existing)) throw new ConflictError(this.kind, entity.id);
    return this.scope.written(this.inner.upsert(this.scope.stamp(entity)));
  }

  async get(id: string): Promise<WithEtag<T> | undefined> {
    return this.scope.visible(await this.inner.get(id));
  }

  async replace(entity: T, options?: { ifMatch?: string }): Promise<WithEtag<T>> {
    if (!(await this.get(entity.id))) throw new NotFoundError(this.kind, entity.id);
    return this.scope.written(this.inner.replace(this.scope.stamp(entity), options));
  }

  async delete(id: string): Promise<void> {
    if (await this.get(id)) await this.inner.delete(id);
  }

  async list(options: EntityListOptions = {}): Promise<Page<WithEtag<T>>> {
    const page = await this.inner.list({ ...options, organization: this.scope.organization });
    return { ...page, items: this.scope.visibleOnly(page.items) };
  }
}
