import type { Role } from '../domain/index.js';
import type { OrganizationScope } from './organizationScope.js';

/** A stored API key: only the SHA-256 of its secret is kept; the secret is shown once, at creation. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  roles: Role[];
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** the organization the key acts in (absent: `default`) */
  organization?: string;
}

export interface ApiKeyStore {
  createApiKey(record: ApiKeyRecord): Promise<void>;
  /** the key with this id whose secret hash matches, if not revoked */
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** `organization`: only that organization's keys */
  listApiKeys(options?: OrganizationScope): Promise<ApiKeyRecord[]>;
  /** idempotent */
  revokeApiKey(id: string, at: string): Promise<void>;
  countApiKeys(): Promise<number>;
}
