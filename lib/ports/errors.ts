/**
 * Store errors every adapter throws the same way, so the API maps them to HTTP once:
 * NotFound -> 404, Conflict -> 409, PreconditionFailed -> 412.
 */
export class StoreError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'precondition_failed',
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export class NotFoundError extends StoreError {
  constructor(entity: string, id: string) {
    super('not_found', `${entity} "${id}" does not exist`);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends StoreError {
  constructor(entity: string, id: string, why = 'already exists') {
    super('conflict', `${entity} "${id}" ${why}`);
    this.name = 'ConflictError';
  }
}

export class PreconditionFailedError extends StoreError {
  constructor(entity: string, id: string) {
    super('precondition_failed', `${entity} "${id}" was changed by someone else (ETag mismatch); re-read it and retry`);
    this.name = 'PreconditionFailedError';
  }
}
