import { DEFAULT_ORGANIZATION, organizationOf } from '../domain/index.js';

/** The organization a scoped store acts for, and the one test of ownership every scoped store uses. */
export class Ownership {
  constructor(readonly organization: string) {}

  /** whether the entity belongs to this organization (no field: `default`) */
  owns(entity: { organization?: string | undefined } | undefined | null): boolean {
    return entity != null && organizationOf(entity) === this.organization;
  }

  /**
   * The entity as this organization writes it: its `organization` set, whatever the caller put there. `default`
   * writes leave the field out (absent means `default`), so its documents stay as they were before organizations.
   */
  stamp<T extends object>(entity: T): T & { organization?: string } {
    const { organization: _given, ...rest } = entity as T & { organization?: unknown };
    return (this.organization === DEFAULT_ORGANIZATION ? rest : { ...rest, organization: this.organization }) as T & {
      organization?: string;
    };
  }

  /** the value when owned, else undefined (a read of another organization's id is a miss: 404, never 403) */
  ownedOrUndefined<T extends { organization?: string | undefined }>(entity: T | undefined): T | undefined {
    return this.owns(entity) ? entity : undefined;
  }

  /**
   * The entity as its organization reads it: owned, with the `organization` field left out (inside a scope it is
   * implicit, so answers look as they did before organizations), else undefined.
   */
  visible<T extends { organization?: string | undefined }>(entity: T | undefined): T | undefined {
    if (!this.owns(entity)) return undefined;
    const { organization: _implicit, ...rest } = entity!;
    return rest as T;
  }

  /** a written entity as its organization reads it back (`organization` left out) */
  async written<T extends { organization?: string | undefined }>(write: Promise<T>): Promise<T> {
    const { organization: _implicit, ...rest } = await write;
    return rest as T;
  }

  /** the owned entities of a list, as `visible` shows them */
  visibleOnly<T extends { organization?: string | undefined }>(entities: readonly T[]): T[] {
    return entities.flatMap((e) => {
      const v = this.visible(e);
      return v ? [v] : [];
    });
  }
}
