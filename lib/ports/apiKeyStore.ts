import type { Role } from '../domain/index.js';

/** A stored API key: only the SHA-256 of its secret is kept; the secret is shown once, at creation. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  roles: Role[];
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ApiKeyStore {
  createApiKey(record: ApiKeyRecord): Promise<void>;
  /** the key with this id whose secret hash matches, if not revoked */
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** idempotent */
  revokeApiKey(id: string, at: string): Promise<void>;
  countApiKeys(): Promise<number>;
}
