import type { SecretRef } from '../domain/index.js';

/** Resolves secret references (environment variables, Key Vault names) at the moment of use; never stored. */
export interface SecretResolver {
  resolve(ref: SecretRef): Promise<string>;
}
