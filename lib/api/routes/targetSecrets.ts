/** Header names whose values are credentials. */
const SECRET_HEADER = /auth|cookie|key|token|secret|passw|credential|session|signature/i;
/** Query parameter names that carry credentials (`?code=` is an Azure Functions key, `?sig=` a SAS signature). */
const SECRET_QUERY = /^(api[-_]?key|key|access[-_]?token|token|secret|client[-_]?secret|password|pwd|sig|signature|code|auth|authorization|subscription[-_]?key)$/i;
const PLACEHOLDER = /^\{\{\s*\w+\s*\}\}$/;

const REFERENCE_HINT = 'reference it as {"env": "NAME"} (an environment variable of the platform) or {"keyvault": "name"}';

export interface SecretIssue {
  /** path under the body, e.g. ['settings', 'headers', 'Authorization'] */
  path: string[];
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Credentials written into a URL: a user or password, or a query parameter named like a key or token. */
function urlIssues(value: unknown, path: string[]): SecretIssue[] {
  if (typeof value !== 'string') return [];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const issues: SecretIssue[] = [];
  if (url.username || url.password) issues.push({ path, message: `credentials in the URL are refused: send them as a header that is a secret reference (${REFERENCE_HINT})` });
  for (const [name, v] of url.searchParams) {
    if (SECRET_QUERY.test(name) && v !== '' && !PLACEHOLDER.test(v)) {
      issues.push({ path, message: `query parameter "${name}" looks like a credential; literal secrets are refused: send it as a header that is a secret reference (${REFERENCE_HINT})` });
    }
  }
  return issues;
}

/**
 * The places where a target-system body carries a literal secret instead of a reference: `settings.api_key` as
 * text, a credential header (`Authorization`, `x-api-key`, `...token...`) with a literal value, and credentials in
 * `settings.url` / `settings.base_url`. Reads any value defensively (it runs on bodies that fail other checks
 * too) and never repeats the secret in a message.
 */
export function literalSecretIssues(body: unknown): SecretIssue[] {
  if (!isRecord(body) || !isRecord(body.settings)) return [];
  const settings = body.settings;
  const issues: SecretIssue[] = [];
  if (typeof settings.api_key === 'string') {
    issues.push({ path: ['settings', 'api_key'], message: `a literal API key is refused and never stored: ${REFERENCE_HINT}` });
  }
  if (isRecord(settings.headers)) {
    for (const [name, value] of Object.entries(settings.headers)) {
      if (typeof value === 'string' && SECRET_HEADER.test(name)) {
        issues.push({ path: ['settings', 'headers', name], message: `header "${name}" carries a credential; a literal value is refused and never stored: ${REFERENCE_HINT}` });
      }
    }
  }
  issues.push(...urlIssues(settings.url, ['settings', 'url']), ...urlIssues(settings.base_url, ['settings', 'base_url']));
  issues.push(...mcpServerIssues(body.mcp_servers));
  return issues;
}

/** MCP servers: credential headers (Streamable HTTP) and credential-named environment variables (stdio) as literals, credentials in the URL. */
function mcpServerIssues(servers: unknown): SecretIssue[] {
  if (!Array.isArray(servers)) return [];
  return servers.flatMap((server: unknown, i) => {
    if (!isRecord(server)) return [];
    const issues: SecretIssue[] = [];
    for (const field of ['headers', 'env'] as const) {
      const values = server[field];
      if (!isRecord(values)) continue;
      for (const [name, value] of Object.entries(values)) {
        if (typeof value === 'string' && SECRET_HEADER.test(name)) {
          issues.push({ path: ['mcp_servers', String(i), field, name], message: `${field === 'env' ? 'variable' : 'header'} "${name}" carries a credential; a literal value is refused and never stored: ${REFERENCE_HINT}` });
        }
      }
    }
    issues.push(...urlIssues(server.url, ['mcp_servers', String(i), 'url']));
    return issues;
  });
}
