import type { z } from 'zod';

/** Header names whose values are credentials. */
const SECRET_HEADER = /auth|cookie|key|token|secret|passw|credential|session|signature/i;
/** Query parameter names that carry credentials (`?code=` is an Azure Functions key, `?sig=` a SAS signature). */
const SECRET_QUERY =
  /^(api[-_]?key|key|access[-_]?token|token|secret|client[-_]?secret|password|pwd|sig|signature|code|auth|authorization|subscription[-_]?key)$/i;
const PLACEHOLDER = /^\{\{\s*\w+\s*\}\}$/;

const REFERENCE_HINT = 'reference it as {"env": "NAME"} (an environment variable of the platform) or {"keyvault": "name"}';

export interface SecretIssue {
  /** path under the body, e.g. ['settings', 'headers', 'Authorization'] */
  path: string[];
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Values that are credentials whatever field they sit in: well-known key formats (OpenAI/Anthropic `sk-`, GitHub,
 * Slack, AWS access key ids, Google API keys, Stripe live keys), JWTs, `Bearer`/`Basic` credentials, and PEM
 * private keys. Deliberately narrow: ordinary words, ids and `{{placeholders}}` never match.
 */
const SECRET_VALUE =
  /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|(?:sk|rk)_live_[0-9A-Za-z]{16,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})|\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** Whether a text carries a credential by its form (see SECRET_VALUE). */
export function looksLikeSecret(text: string): boolean {
  return SECRET_VALUE.test(text);
}

/** Name=value pairs of a query string or fragment (`#access_token=...` as OAuth implicit flows write them). */
function pairsOf(text: string): Array<[string, string]> {
  try {
    return [...new URLSearchParams(text.replace(/^[?#]/, ''))];
  } catch {
    return [];
  }
}

/**
 * Credentials written into a URL: a user or password, a query or fragment parameter named like a key or token
 * with a literal value, or any query/fragment value shaped like a credential.
 */
export function urlSecretIssues(value: unknown, path: string[]): SecretIssue[] {
  if (typeof value !== 'string') return [];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const issues: SecretIssue[] = [];
  if (url.username || url.password)
    issues.push({
      path,
      message: `credentials in the URL are refused: send them as a header that is a secret reference (${REFERENCE_HINT})`,
    });
  for (const [part, text] of [
    ['query', url.search],
    ['fragment', url.hash],
  ] as const) {
    for (const [name, v] of pairsOf(text)) {
      if (v === '' || PLACEHOLDER.test(v)) continue;
      if (SECRET_QUERY.test(name) || /token|secret|passw|api[-_]?key/i.test(name) || looksLikeSecret(v)) {
        issues.push({
          path,
          message: `${part} parameter "${name}" looks like a credential; literal secrets are refused: send it as a header that is a secret reference (${REFERENCE_HINT})`,
        });
      }
    }
  }
  return issues;
}

/** Headers with a literal value that is a credential: by the header's name (`Authorization`, `x-api-key`, ...) or by the value's form. */
export function headerSecretIssues(headers: unknown, path: string[]): SecretIssue[] {
  if (!isRecord(headers)) return [];
  const issues: SecretIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' && (SECRET_HEADER.test(name) || looksLikeSecret(value))) {
      issues.push({
        path: [...path, name],
        message: `header "${name}" carries a credential; a literal value is refused and never stored: ${REFERENCE_HINT}`,
      });
    }
  }
  return issues;
}

/** JSON member names whose literal string value is a credential, in a request template. */
const SECRET_MEMBER =
  /"([^"\\]*(?:api[-_]?key|apikey|token|secret|passw(?:or)?d|authorization|credential|client[-_]?secret|private[-_]?key)[^"\\]*)"\s*:\s*"((?:[^"\\]|\\.)*)"/gi;

/**
 * A request template (sent as the body of every call, stored with the target, shown to readers) that carries a
 * credential: a member named like a key or token with a literal value (a `{{placeholder}}` is fine), or any text
 * shaped like a credential. Headers with secret references are where credentials go.
 */
export function templateSecretIssues(template: unknown, path: string[]): SecretIssue[] {
  if (typeof template !== 'string') return [];
  const named = [...template.matchAll(SECRET_MEMBER)].find(
    ([, , value]) => value !== undefined && value.trim() !== '' && !PLACEHOLDER.test(value.trim()),
  );
  if (named) {
    return [
      {
        path,
        message: `member "${named[1]}" of the template carries a literal credential; literal secrets are refused and never stored: send it as a header that is a secret reference (${REFERENCE_HINT})`,
      },
    ];
  }
  if (looksLikeSecret(template))
    return [
      {
        path,
        message: `the template contains text shaped like a credential; literal secrets are refused and never stored: send it as a header that is a secret reference (${REFERENCE_HINT})`,
      },
    ];
  return [];
}

/**
 * The places where a target-system body carries a literal secret instead of a reference: `settings.api_key` as
 * text, a credential header (by name or by value), credentials in `settings.url` / `settings.base_url` (user
 * info, query, fragment), and a credential in `settings.request_template`. Reads any value defensively (it runs on
 * bodies that fail other checks too) and never repeats the secret in a message.
 */
export function literalSecretIssues(body: unknown): SecretIssue[] {
  if (!isRecord(body) || !isRecord(body.settings)) return [];
  const settings = body.settings;
  const issues: SecretIssue[] = [];
  if (typeof settings.api_key === 'string') {
    issues.push({ path: ['settings', 'api_key'], message: `a literal API key is refused and never stored: ${REFERENCE_HINT}` });
  }
  issues.push(...headerSecretIssues(settings.headers, ['settings', 'headers']));
  issues.push(...urlSecretIssues(settings.url, ['settings', 'url']), ...urlSecretIssues(settings.base_url, ['settings', 'base_url']));
  issues.push(...templateSecretIssues(settings.request_template, ['settings', 'request_template']));
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
          issues.push({
            path: ['mcp_servers', String(i), field, name],
            message: `${field === 'env' ? 'variable' : 'header'} "${name}" carries a credential; a literal value is refused and never stored: ${REFERENCE_HINT}`,
          });
        }
      }
    }
    issues.push(...urlSecretIssues(server.url, ['mcp_servers', String(i), 'url']));
    return issues;
  });
}

/**
 * The `/api/evaluate` body: `target_url` (user info, query, fragment), `request_template`, and every question and
 * expected outcome (text shaped like a credential: it would be stored and shown to every reader).
 */
export function compatSecretIssues(body: unknown): SecretIssue[] {
  if (!isRecord(body)) return [];
  const issues = [
    ...urlSecretIssues(body.target_url, ['target_url']),
    ...templateSecretIssues(body.request_template, ['request_template']),
  ];
  if (Array.isArray(body.questions)) {
    body.questions.forEach((q: unknown, i) => {
      if (!isRecord(q)) return;
      const texts: Array<[string[], unknown]> = [[['questions', String(i), 'question'], q.question]];
      if (isRecord(q.expected_outcome))
        for (const [k, v] of Object.entries(q.expected_outcome)) texts.push([['questions', String(i), 'expected_outcome', k], v]);
      for (const [path, text] of texts) {
        if (typeof text === 'string' && looksLikeSecret(text))
          issues.push({ path, message: `text shaped like a credential is refused (it would be stored and shown to every reader)` });
      }
    });
  }
  return issues;
}

/** Refuses literal secrets with 400 naming each field, whatever else is wrong with the body (issues from `find`). */
export function refusingLiteralSecrets<S extends z.ZodType>(schema: S, find: (body: unknown) => SecretIssue[]): S {
  return schema.superRefine(
    (value, ctx) => {
      for (const issue of find(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    },
    { when: () => true },
  ) as S;
}
