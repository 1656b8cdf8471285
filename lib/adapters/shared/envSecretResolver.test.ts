import { describe, expect, it } from 'vitest';
import type { SecretRef } from '../../domain/index.js';
import { EnvSecretResolver } from './envSecretResolver.js';
import { SecretResolutionError } from '../../ports/index.js';

const resolver = new EnvSecretResolver({ AGENT_TOKEN: 'tok-123', BLANK: '  ', EMPTY: '' });

describe('EnvSecretResolver', () => {
  it('resolves an env reference from the map', async () => {
    await expect(resolver.resolve({ env: 'AGENT_TOKEN' })).resolves.toBe('tok-123');
  });

  it.each<[SecretRef, RegExp]>([
    [{ env: 'MISSING' }, /environment variable MISSING is not set/],
    [{ env: 'BLANK' }, /environment variable BLANK is not set/],
    [{ env: 'EMPTY' }, /environment variable EMPTY is not set/],
    [{ keyvault: 'agent-token' }, /Key Vault references need the Azure backend: secret "agent-token"/],
  ])('rejects %j with a SecretResolutionError naming it', async (ref, message) => {
    const error = await resolver.resolve(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretResolutionError);
    expect((error as SecretResolutionError).message).toMatch(message);
    expect((error as SecretResolutionError).ref).toEqual(ref);
  });

  it('reads process.env at call time by default', async () => {
    const name = 'EVALP_TARGETS_TEST_SECRET';
    const fromProcess = new EnvSecretResolver();
    process.env[name] = 'late';
    try {
      await expect(fromProcess.resolve({ env: name })).resolves.toBe('late');
    } finally {
      delete process.env[name];
    }
  });
});
