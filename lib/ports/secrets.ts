import type { SecretRef } from '../domain/index.js';

/** Resolves secret references (environment variables, Key Vault names) at the moment of use; never stored. */
export interface SecretResolver {
  resolve(ref: SecretRef): Promise<string>;
}

/** A secret reference that cannot be resolved: a missing variable, or a backend this host does not have. */
export class SecretResolutionError extends Error {
  override readonly name = 'SecretResolutionError';
  constructor(
    readonly ref: SecretRef,
    message: string,
  ) {
    super(message);
  }
}
