import { organizationCondition } from './cosmosOrganization.js';
import type { Container } from '@azure/cosmos';
import { ConflictError, type ApiKeyRecord, type ApiKeyStore, type OrganizationScope } from '../../ports/index.js';
import { queryAll } from './cosmosBulk.js';
import { cosmosStatus, readOrUndefined } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';

/** An API key in the `apikeys` container (partition key /id); only the secret's SHA-256 is stored. */
interface ApiKeyDocument {
  id: string;
  key_id: string;
  created_at: string;
  revoked: boolean;
  record: ApiKeyRecord;
}

/** API keys on Cosmos DB: point reads by key id (every authenticated request), lists by creation time. */
export class CosmosApiKeyStore implements ApiKeyStore {
  constructor(private readonly container: Container) {}

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    try {
      await this.container.items.create<ApiKeyDocument>({
        id: toCosmosId(record.id),
        key_id: record.id,
        created_at: record.created_at,
        revoked: record.revoked_at !== null,
        record,
      });
    } catch (error) {
      if (cosmosStatus(error) === 409) throw new ConflictError('api key', record.id);
      throw error;
    }
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const key = toCosmosId(id);
    return (await readOrUndefined(this.container.item(key, key).read<ApiKeyDocument>()))?.record;
  }

  async listApiKeys(options: OrganizationScope = {}): Promise<ApiKeyRecord[]> {
    const org = options.organization;
    const docs = await queryAll<ApiKeyDocument>(
      this.container,
      org === undefined
        ? { query: 'SELECT * FROM c ORDER BY c.created_at, c.key_id' }
        : {
            query: `SELECT * FROM c WHERE ${organizationCondition('c.record.organization', '@org', org)} ORDER BY c.created_at, c.key_id`,
            parameters: [{ name: '@org', value: org }],
          },
    );
    return docs.map((doc) => doc.record);
  }

  /** Idempotent: revoking a revoked or missing key changes nothing (a concurrent write is retried). */
  async revokeApiKey(id: string, at: string): Promise<void> {
    const key = toCosmosId(id);
    for (;;) {
      const doc = await readOrUndefined(this.container.item(key, key).read<ApiKeyDocument & { _etag: string }>());
      if (!doc || doc.record.revoked_at !== null) return;
      try {
        const record = { ...doc.record, revoked_at: at };
        await this.container
          .item(key, key)
          .replace<ApiKeyDocument>(
            { id: doc.id, key_id: doc.key_id, created_at: doc.created_at, revoked: true, record },
            { accessCondition: { type: 'IfMatch', condition: doc._etag } },
          );
        return;
      } catch (error) {
        const status = cosmosStatus(error);
        if (status === 404) return;
        if (status !== 412) throw error;
      }
    }
  }

  async countApiKeys(): Promise<number> {
    const [count] = await queryAll<number>(this.container, { query: 'SELECT VALUE COUNT(1) FROM c WHERE c.revoked = false' });
    return count ?? 0;
  }
}
