import type { SecretRef } from '../../domain/index.js';
import { SecretResolutionError, type SecretResolver } from '../../ports/index.js';

/**
 * Resolves `{ env: NAME }` from an environment map (default `process.env`, read at each call so a value set
 * later is seen). A missing or blank variable throws SecretResolutionError naming it. `{ keyvault: NAME }`
 * throws: Key Vault references need the Azure backend (its resolver is not written yet).
 */
export class EnvSecretResolver implements SecretResolver {
  constructor(private readonly env: Readonly<Record<string, string | undefined>> = process.env) {}

  async resolve(ref: SecretRef): Promise<string> {
    if ('env' in ref) {
      const value = this.env[ref.env];
      if (value === undefined || value.trim() === '') {
        throw new SecretResolutionError(ref, `environment variable ${ref.env} is not set (it is referenced as a secret)`);
      }
      return value;
    }
    throw new SecretResolutionError(
      ref,
      `Key Vault references need the Azure backend: secret "${ref.keyvault}" cannot be read on the embedded host; use {"env": "NAME"} instead`,
    );
  }
}
