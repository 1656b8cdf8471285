import type { EntityStore } from '../../ports/index.js';
import { ApiError, type FieldError } from '../problem.js';

const SCAN_PAGE = 1000;

/** Every entity of a store, page by page (suites, targets and clients number in the hundreds, not millions). */
export async function* everyEntity<T extends { id: string }>(store: EntityStore<T>): AsyncIterable<T> {
  for (let offset = 0; ; offset += SCAN_PAGE) {
    const page = await store.list({ limit: SCAN_PAGE, offset });
    yield* page.items;
    if (!page.has_more || page.items.length === 0) return;
  }
}

/** `label "id"` for each entity of `store` that `refersTo` says still points at the thing being deleted. */
export async function referrersIn<T extends { id: string }>(
  store: EntityStore<T>,
  label: string,
  refersTo: (entity: T) => boolean,
): Promise<string[]> {
  const found: string[] = [];
  for await (const entity of everyEntity(store)) if (refersTo(entity)) found.push(`${label} "${entity.id}"`);
  return found;
}

/** One reference of a request body: the field path under `body` and the id it names. */
export interface Reference {
  path: string;
  id: string;
}

/**
 * Checks that every reference exists (`exists` per id, each id asked once) and throws 422 naming each missing
 * one's field (`body.suite_ids.1`) when some do not.
 */
export async function requireReferences(
  noun: string,
  references: readonly Reference[],
  exists: (id: string) => Promise<boolean>,
): Promise<void> {
  const known = new Map<string, boolean>();
  const errors: FieldError[] = [];
  for (const ref of references) {
    if (!known.has(ref.id)) known.set(ref.id, await exists(ref.id));
    if (!known.get(ref.id)) errors.push({ path: `body.${ref.path}`, message: `${noun} "${ref.id}" does not exist` });
  }
  if (errors.length > 0) throw new ApiError(422, 'Unprocessable Content', errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
}
