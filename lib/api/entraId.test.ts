import { describe, expect, it } from 'vitest';
import { defaultIssuers, defaultJwksUrl, rolesFromClaim } from './entraId.js';
import type { Role } from '../domain/roles.js';

describe('rolesFromClaim: Entra ID app roles -> roles', () => {
  it.each<[unknown, Role[]]>([
    [['EvalPlatform.Reader'], ['reader']],
    [
      ['reader', 'runner'],
      ['reader', 'runner'],
    ],
    [
      ['EvalPlatform.TestAdmin', 'EvalPlatform.SuiteAdmin'],
      ['test-admin', 'suite-admin'],
    ],
    [
      ['evalplatform.platform-admin', 'Test_Admin'],
      ['test-admin', 'platform-admin'],
    ],
    [['EvalPlatform.Runner', 'EvalPlatform.Runner', 'RUNNER'], ['runner']],
    [['Other.Reader', 'EvalPlatform.Owner', 'admin', 42, null], []],
    ['EvalPlatform.Reader', []],
    [undefined, []],
  ])('%j -> %j', (claim, roles) => {
    expect(rolesFromClaim(claim)).toEqual(roles);
  });
});

describe('public-cloud defaults', () => {
  it('accepts the v2.0 and v1.0 issuers of the tenant and reads its v2.0 keys', () => {
    expect(defaultIssuers('t-1')).toEqual(['https://login.microsoftonline.com/t-1/v2.0', 'https://sts.windows.net/t-1/']);
    expect(defaultJwksUrl('t-1')).toBe('https://login.microsoftonline.com/t-1/discovery/v2.0/keys');
  });
});
