import { userInfo } from 'node:os';
import { DEFAULT_ORGANIZATION, OrganizationSchema, type AuditActor, type Organization, type Role } from '../../domain/index.js';
import type { EntityStore } from '../../ports/index.js';
import type { ApiKeyView } from '../../api/index.js';
import { systemClock } from '../../ports/index.js';
import { CliError } from '../cliError.js';

/** Key administration on the platform's own SQLite database (no server, no key needed: the file is the authority). */
export interface KeyAdmin {
  create(input: { name: string; roles: Role[]; organization?: string | undefined }): Promise<{ key: string; view: ApiKeyView }>;
  list(): Promise<ApiKeyView[]>;
  revoke(id: string): Promise<ApiKeyView>;
  close(): void;
}

/** The person at the keyboard, as audit records name a local change. */
export function localActor(): AuditActor {
  let user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep the environment's name
  }
  return { id: `local:${user}`, name: user, kind: 'local' };
}

/**
 * Opens `${dataDir}/evalplatform.db` (created when missing, as `evalp start` would) and administers its keys,
 * writing an audit record (method `CLI`, actor `local:<user>`) for every creation and revocation. Safe while the
 * platform runs: SQLite WAL with a busy timeout; the platform reads keys from the file on every request.
 */
export async function openLocalKeyAdmin(dataDir: string): Promise<KeyAdmin> {
  const [
    { openHostDatabase },
    { EmbeddedApiKeyStore, EmbeddedAuditStore, EmbeddedEntityStore },
    { apiKeyView, createApiKey },
    { localKeyAuditRecord },
  ] = await Promise.all([
    import('../../host/index.js'),
    import('../../adapters/embedded/index.js'),
    import('../../api/index.js'),
    import('../../api/index.js'),
  ]);
  const db = openHostDatabase(dataDir);
  const keys = new EmbeddedApiKeyStore(db);
  const organizations = localOrganizations(db, EmbeddedEntityStore);
  const audit = new EmbeddedAuditStore(db);
  const actor = localActor();
  const record = async (action: 'create' | 'revoke', keyId: string): Promise<void> => {
    await audit.createAuditRecord(localKeyAuditRecord({ actor, action, keyId, at: systemClock.now().toISOString() }));
  };
  return {
    async create(input) {
      if (input.organization && input.organization !== DEFAULT_ORGANIZATION && !(await organizations.get(input.organization)))
        throw new CliError(
          `no organization "${input.organization}" in ${dataDir}: create it first (evalp orgs create ${input.organization} --name ...)`,
        );
      const { key, record: stored } = await createApiKey(keys, input, systemClock);
      await record('create', stored.id);
      return { key, view: apiKeyView(stored) };
    },
    async list() {
      return (await keys.listApiKeys()).map(apiKeyView);
    },
    async revoke(id) {
      if (!(await keys.getApiKey(id))) throw new CliError(`no API key with id ${id} in ${dataDir}`);
      await keys.revokeApiKey(id, systemClock.now().toISOString());
      await record('revoke', id);
      return apiKeyView((await keys.getApiKey(id))!);
    },
    close: () => db.close(),
  };
}

/** The organizations of the local database (the entity table the platform uses, kind `organization`). */
export function localOrganizations<Db>(
  db: Db,
  Store: new (db: Db, kind: string, schema: typeof OrganizationSchema) => EntityStore<Organization>,
): EntityStore<Organization> {
  return new Store(db, 'organization', OrganizationSchema);
}
