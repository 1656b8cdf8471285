/**
 * Errors of the embedded containers, shaped like @azure/cosmos's ErrorResponse: `code` is the HTTP status
 * (404, 409, 412), so callers written against Cosmos can test `error.code === 412` on either host.
 */
export class DocumentStoreError extends Error {
  constructor(
    message: string,
    readonly code: 404 | 409 | 412,
    readonly containerName: string,
    readonly id: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  get statusCode(): number {
    return this.code;
  }
}

export class DocumentNotFoundError extends DocumentStoreError {
  constructor(containerName: string, id: string) {
    super(`Document "${id}" does not exist in container "${containerName}".`, 404, containerName, id);
  }
}

export class DocumentConflictError extends DocumentStoreError {
  constructor(containerName: string, id: string) {
    super(`Document "${id}" already exists in container "${containerName}".`, 409, containerName, id);
  }
}

export class PreconditionFailedError extends DocumentStoreError {
  constructor(
    containerName: string,
    id: string,
    readonly expectedEtag: string,
    readonly actualEtag: string,
  ) {
    super(
      `Document "${id}" in container "${containerName}" changed: its _etag is ${actualEtag}, not ${expectedEtag}. Read it again and retry.`,
      412,
      containerName,
      id,
    );
  }
}
