import type { TokenCredential } from '@azure/identity';
import type { SecretRef } from '../../domain/index.js';
import { SecretResolutionError, type SecretResolver } from '../../ports/index.js';
import { EnvSecretResolver } from '../shared/index.js';

export const KEY_VAULT_SCOPE = 'https://vault.azure.net/.default';
const API_VERSION = '7.4';

export interface KeyVaultSecretResolverOptions {
  /** EVALP_KEY_VAULT_URL, e.g. https://<vault>.vault.azure.net; absent: `{keyvault}` references cannot be resolved */
  vaultUrl?: string;
  credential?: TokenCredential;
  /** `{env}` references and the environment (default process.env) */
  env?: Readonly<Record<string, string | undefined>>;
  /** how long a secret is reused before it is read again (default 5 minutes; rotation shows after that) */
  cacheTtlInMs?: number;
  timeoutInMs?: number;
}

/**
 * Resolves target secrets in Azure: `{env: NAME}` from app settings (which may themselves be Key Vault references,
 * `@Microsoft.KeyVault(SecretUri=...)`, resolved by the platform), `{keyvault: name}` from Key Vault's REST API
 * (GET {vault}/secrets/{name}, api-version 7.4) with an Entra ID token for https://vault.azure.net (role Key Vault
 * Secrets User). Written on fetch + @azure/identity: @azure/keyvault-secrets is not a dependency. Values are cached
 * in memory for `cacheTtlInMs`; errors name the secret, never a value.
 */
export class KeyVaultSecretResolver implements SecretResolver {
  private readonly envResolver: EnvSecretResolver;
  private readonly cache = new Map<string, { value: string; until: number }>();

  constructor(private readonly options: KeyVaultSecretResolverOptions = {}) {
    this.envResolver = new EnvSecretResolver(options.env ?? process.env);
  }

  async resolve(ref: SecretRef): Promise<string> {
    if ('env' in ref) return this.envResolver.resolve(ref);
    const cached = this.cache.get(ref.keyvault);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = await this.read(ref);
    this.cache.set(ref.keyvault, { value, until: Date.now() + (this.options.cacheTtlInMs ?? 300_000) });
    return value;
  }

  private async read(ref: { keyvault: string }): Promise<string> {
    const { vaultUrl, credential } = this.options;
    if (!vaultUrl || !credential)
      throw new SecretResolutionError(ref, `secret "${ref.keyvault}" is a Key Vault reference, but EVALP_KEY_VAULT_URL is not set`);
    const token = await credential.getToken(KEY_VAULT_SCOPE);
    if (!token) throw new SecretResolutionError(ref, `no Entra ID token for Key Vault (secret "${ref.keyvault}")`);
    const url = `${vaultUrl.replace(/\/+$/, '')}/secrets/${encodeURIComponent(ref.keyvault)}?api-version=${API_VERSION}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token.token}` },
      signal: AbortSignal.timeout(this.options.timeoutInMs ?? 10_000),
    });
    if (response.status === 404) throw new SecretResolutionError(ref, `secret "${ref.keyvault}" does not exist in ${vaultUrl}`);
    if (response.status === 401 || response.status === 403)
      throw new SecretResolutionError(
        ref,
        `Key Vault refused to read secret "${ref.keyvault}" (HTTP ${response.status}): the app's identity needs the Key Vault Secrets User role`,
      );
    if (!response.ok) throw new Error(`Key Vault answered HTTP ${response.status} for secret "${ref.keyvault}"`);
    const body = (await response.json()) as { value?: unknown };
    if (typeof body.value !== 'string' || body.value === '') throw new SecretResolutionError(ref, `secret "${ref.keyvault}" has no value`);
    return body.value;
  }
}
