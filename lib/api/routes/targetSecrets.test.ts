import { describe, expect, it } from 'vitest';
import { compatSecretIssues, literalSecretIssues } from './targetSecrets.js';

describe('literalSecretIssues', () => {
  it.each<[string, unknown, string[][]]>([
    ['references only', { settings: { kind: 'openai', model: 'm', api_key: { env: 'OPENAI_API_KEY' } } }, []],
    ['a literal api_key', { settings: { kind: 'openai', api_key: 'sk-1' } }, [['settings', 'api_key']]],
    [
      'credential headers as text',
      {
        settings: {
          headers: {
            Authorization: 'Bearer x',
            'X-API-Key': 'k',
            Cookie: 'c',
            'X-Auth-Token': 't',
            'X-Client': 'evalp',
            Accept: 'application/json',
          },
        },
      },
      [
        ['settings', 'headers', 'Authorization'],
        ['settings', 'headers', 'X-API-Key'],
        ['settings', 'headers', 'Cookie'],
        ['settings', 'headers', 'X-Auth-Token'],
      ],
    ],
    ['credential headers as references', { settings: { headers: { Authorization: { env: 'T' }, 'x-api-key': { keyvault: 'k' } } } }, []],
    ['user and password in the URL', { settings: { url: 'https://u:p@agent.example.com/x' } }, [['settings', 'url']]],
    ['a key in the query', { settings: { url: 'https://fn.azurewebsites.net/api/ask?code=abc&q={{question}}' } }, [['settings', 'url']]],
    ['a placeholder in a key parameter', { settings: { url: 'https://x.example.com/ask?token={{test_case_id}}' } }, []],
    ['ordinary query parameters', { settings: { url: 'https://x.example.com/ask?q={{question}}&keyword=shoes&author=me' } }, []],
    ['a key in base_url', { settings: { base_url: 'https://x.example.com/v1?api-key=abc' } }, [['settings', 'base_url']]],
    ['a token in the fragment', { settings: { url: 'https://x.example.com/ask#access_token=abc123' } }, [['settings', 'url']]],
    [
      'a key-shaped value under an innocent query name',
      { settings: { url: 'https://x.example.com/ask?q=sk-proj-abcdefghijklmnopqrstuv' } },
      [['settings', 'url']],
    ],
    [
      'a key-shaped value in an innocent header',
      { settings: { headers: { 'X-Client': 'ghp_abcdefghijklmnopqrstuvwxyz0123' } } },
      [['settings', 'headers', 'X-Client']],
    ],
    [
      'a literal key member in the request template',
      { settings: { request_template: '{"question": {{question}}, "api_key": "abc123"}' } },
      [['settings', 'request_template']],
    ],
    [
      'a bearer credential anywhere in the template',
      { settings: { request_template: '{"q": {{question}}, "meta": "Bearer abcdefghijkl"}' } },
      [['settings', 'request_template']],
    ],
    [
      'a placeholder in a key member of the template',
      { settings: { request_template: '{"question": {{question}}, "token": "{{test_case_id}}", "max_tokens": 200}' } },
      [],
    ],
    ['a URL that does not parse', { settings: { url: 'not a url' } }, []],
    ['not an object', 'text', []],
    ['no settings', { name: 'x' }, []],
  ])('%s', (_why, body, paths) => {
    expect(literalSecretIssues(body).map((i) => i.path)).toEqual(paths);
  });

  it('never repeats the secret in its messages', () => {
    const issues = literalSecretIssues({
      settings: { api_key: 'sk-SECRET', url: 'https://u:pSECRET@h/x?sig=SECRET', headers: { Authorization: 'SECRET' } },
    });
    expect(issues).toHaveLength(4);
    for (const issue of issues) expect(issue.message).not.toContain('SECRET');
  });
});

describe('compatSecretIssues (the /api/evaluate body)', () => {
  it('names target_url (query and fragment), request_template and questions', () => {
    const body = {
      target_url: 'http://agent.example.com/ask?api_key=abc#token=def',
      request_template: '{"question": {{question}}, "password": "hunter2"}',
      questions: [
        { question: 'what is sk-abcdefghijklmnopqrstuvwx?', expected_outcome: { response: 'ok' } },
        { question: 'fine', expected_outcome: { response: 'Bearer abcdefghijklmnop' } },
      ],
    };
    expect(compatSecretIssues(body).map((i) => i.path.join('.'))).toEqual([
      'target_url',
      'target_url',
      'request_template',
      'questions.0.question',
      'questions.1.expected_outcome.response',
    ]);
    expect(
      compatSecretIssues({
        target_url: 'http://agent.example.com/ask?lang=en',
        questions: [{ question: 'how many tokens?', expected_outcome: { response: 'ten' } }],
      }),
    ).toEqual([]);
  });
});

describe('literalSecretIssues: MCP servers', () => {
  it('refuses literal credential headers, credential-named variables and URL credentials; references and other values pass', () => {
    const body = {
      settings: { kind: 'anthropic', model: 'm' },
      mcp_servers: [
        {
          name: 'remote',
          transport: 'http',
          url: 'https://mcp.example.com/mcp?token=SECRET',
          headers: { Authorization: 'Bearer SECRET', 'x-team': 'retail', 'x-api-key': { env: 'MCP_KEY' } },
        },
        {
          name: 'local',
          transport: 'stdio',
          command: 'node',
          env: { GITHUB_TOKEN: 'ghp_SECRET', LOG_LEVEL: 'debug', API_KEY: { env: 'K' } },
        },
      ],
    };
    const issues = literalSecretIssues(body);
    expect(issues.map((i) => i.path.join('.'))).toEqual([
      'mcp_servers.0.headers.Authorization',
      'mcp_servers.0.url',
      'mcp_servers.1.env.GITHUB_TOKEN',
    ]);
    expect(issues.every((i) => !i.message.includes('SECRET'))).toBe(true);
  });
});
