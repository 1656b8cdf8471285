import { DEFAULT_ORGANIZATION } from '../domain/index.js';
import type {
  ApiKeyRecord,
  ApiKeyStore,
  DeadLetterMessage,
  DeadLetterPort,
  ListDeadLettersOptions,
  OrganizationScope,
  ReplayDeadLettersOptions,
  ReplayResult,
} from '../ports/index.js';
import type { Ownership } from './ownership.js';
import type { ScopedRunStore } from './scopedRunStores.js';

/** API keys of one organization: created in it, listed and revoked only there (authentication reads unscoped). */
export class ScopedApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly inner: ApiKeyStore,
    private readonly scope: Ownership,
  ) {}

  createApiKey(record: ApiKeyRecord): Promise<void> {
    return this.inner.createApiKey(this.scope.stamp(record));
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    return this.scope.ownedOrUndefined(await this.inner.getApiKey(id));
  }

  listApiKeys(_options?: OrganizationScope): Promise<ApiKeyRecord[]> {
    return this.inner.listApiKeys({ organization: this.scope.organization });
  }

  async revokeApiKey(id: string, at: string): Promise<void> {
    if (await this.getApiKey(id)) await this.inner.revokeApiKey(id, at);
  }

  async countApiKeys(): Promise<number> {
    return (await this.listApiKeys()).filter((k) => k.revoked_at === null).length;
  }
}

/** The run a stage message is about: `run_id` in its body or its application properties. */
export function runIdOfMessage(message: DeadLetterMessage): string | undefined {
  const body = message.body as { run_id?: unknown } | null | undefined;
  const fromBody = body && typeof body === 'object' && typeof body.run_id === 'string' ? body.run_id : undefined;
  const fromProperties = message.applicationProperties['run_id'];
  return fromBody ?? (typeof fromProperties === 'string' ? fromProperties : undefined);
}

/**
 * Dead letters of one organization's runs. A message that names no run is shown to the `default` organization only
 * (the platform operator's). A replay sends back only the organization's messages; other ids read as not found.
 */
export class ScopedDeadLetters implements DeadLetterPort {
  constructor(
    private readonly inner: DeadLetterPort,
    private readonly scope: Ownership,
    private readonly runs: ScopedRunStore,
  ) {}

  async listDeadLetters(queueName: string, options?: ListDeadLettersOptions): Promise<DeadLetterMessage[]> {
    const messages = await this.inner.listDeadLetters(queueName, options);
    const owned = await Promise.all(messages.map((m) => this.owns(m)));
    return messages.filter((_, i) => owned[i]);
  }

  async replayDeadLetters(queueName: string, options: ReplayDeadLettersOptions = {}): Promise<ReplayResult> {
    const mine = new Set((await this.listDeadLetters(queueName, { limit: 100_000 })).map((m) => m.messageId));
    const wanted = options.messageIds ?? [...mine];
    const notMine = wanted.filter((id) => !mine.has(id));
    const ids = wanted.filter((id) => mine.has(id));
    if (ids.length === 0) return { replayed: 0, notFound: notMine };
    const result = await this.inner.replayDeadLetters(queueName, { ...options, messageIds: ids });
    return { replayed: result.replayed, notFound: [...result.notFound, ...notMine] };
  }

  private async owns(message: DeadLetterMessage): Promise<boolean> {
    const runId = runIdOfMessage(message);
    return runId === undefined ? this.scope.organization === DEFAULT_ORGANIZATION : this.runs.ownsRun(runId);
  }
}
