import { DEFAULT_ORGANIZATION } from '../../domain/index.js';

/**
 * The Cosmos SQL condition of an organization filter on `path` (e.g. `c.body.organization`) with the parameter
 * `param` bound to the organization: a document without the field (written before organizations) is `default`'s.
 */
export function organizationCondition(path: string, param: string, organization: string): string {
  return organization === DEFAULT_ORGANIZATION ? `(${path} = ${param} OR NOT IS_DEFINED(${path}))` : `${path} = ${param}`;
}
