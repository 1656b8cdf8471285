import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TokenCredential } from '@azure/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretResolutionError } from '../../ports/index.js';
import { KEY_VAULT_SCOPE, KeyVaultSecretResolver } from './keyVaultSecretResolver.js';

const secrets: Record<string, string> = { 'openai-key': 'sk-secret-1' };
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  const name = /^\/secrets\/([^?]+)\?api-version=7\.4$/.exec(req.url ?? '')?.[1];
  if (req.headers.authorization !== 'Bearer vault-token') return void res.writeHead(403).end('{"error":{"code":"Forbidden"}}');
  if (!name || !(name in secrets)) return void res.writeHead(404).end('{"error":{"code":"SecretNotFound"}}');
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ value: secrets[name], id: `https://v/secrets/${name}/1` }));
});
let vaultUrl: string;
const scopes: string[] = [];
const credential = (token: string): TokenCredential => ({
  getToken: async (scope) => {
    scopes.push(String(scope));
    return { token, expiresOnTimestamp: Date.now() + 3_600_000 };
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vaultUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('KeyVaultSecretResolver (against a local server speaking the Key Vault secrets API)', () => {
  it('reads a {keyvault} secret with an Entra ID token for Key Vault, and caches it', async () => {
    const resolver = new KeyVaultSecretResolver({ vaultUrl, credential: credential('vault-token'), env: {} });
    const before = seen.length;
    expect(await resolver.resolve({ keyvault: 'openai-key' })).toBe('sk-secret-1');
    expect(await resolver.resolve({ keyvault: 'openai-key' })).toBe('sk-secret-1');
    expect(seen.length - before).toBe(1);
    expect(scopes.at(-1)).toBe(KEY_VAULT_SCOPE);
  });

  it('resolves {env} references from the settings (which may be Key Vault references the platform resolved)', async () => {
    const resolver = new KeyVaultSecretResolver({ env: { TARGET_KEY: 'from-app-settings' } });
    expect(await resolver.resolve({ env: 'TARGET_KEY' })).toBe('from-app-settings');
    await expect(resolver.resolve({ env: 'MISSING' })).rejects.toBeInstanceOf(SecretResolutionError);
  });

  it.each<[string, ConstructorParameters<typeof KeyVaultSecretResolver>[0], string, RegExp]>([
    ['no vault configured', {}, 'openai-key', /EVALP_KEY_VAULT_URL is not set/],
    ['a secret that does not exist', { credential: credential('vault-token') }, 'nope', /"nope" does not exist/],
    [
      'an identity without the role',
      { credential: credential('wrong') },
      'openai-key',
      /HTTP 403\): the app's identity needs the Key Vault Secrets User role/,
    ],
  ])('fails with a message naming the secret: %s', async (_label, options, name, message) => {
    const resolver = new KeyVaultSecretResolver({ env: {}, ...(options?.credential ? { vaultUrl } : {}), ...options });
    const error = await resolver.resolve({ keyvault: name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretResolutionError);
    expect(String((error as Error).message)).toMatch(message);
    expect(String((error as Error).message)).not.toContain('sk-secret');
  });
});
