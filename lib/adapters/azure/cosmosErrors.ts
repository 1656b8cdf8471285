import { ConflictError, NotFoundError, PreconditionFailedError } from '../../ports/index.js';

/** The HTTP status of a Cosmos DB error (`ErrorResponse.code`), or undefined for anything else. */
export function cosmosStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'number') return code;
  if (typeof statusCode === 'number') return statusCode;
  return undefined;
}

export const isNotFound = (error: unknown): boolean => cosmosStatus(error) === 404;

/**
 * Maps the statuses every store turns into port errors: 404 -> NotFoundError, 409 -> ConflictError,
 * 412 -> PreconditionFailedError; anything else is rethrown unchanged (infrastructure failure).
 */
export function toStoreError(error: unknown, entity: string, id: string): unknown {
  switch (cosmosStatus(error)) {
    case 404:
      return new NotFoundError(entity, id);
    case 409:
      return new ConflictError(entity, id);
    case 412:
      return new PreconditionFailedError(entity, id);
    default:
      return error;
  }
}

/** Awaits a point read's resource, undefined on 404 (reads of the SDK resolve with statusCode 404 and no resource). */
export async function readOrUndefined<T>(read: Promise<{ resource?: T | undefined }>): Promise<T | undefined> {
  try {
    return (await read).resource ?? undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
