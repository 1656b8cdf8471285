import { afterEach, describe, expect, it } from 'vitest';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { testCase } from '../testing/testCases.test-helpers.js';
import { startScriptedServer, type Responder, type ScriptedServer } from '../testing/scriptedServer.test-helpers.js';
import { HttpTarget, type HttpSettings } from './httpTarget.js';
import { extractUsage } from './usageExtraction.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function targetWith(responder: Responder, response: HttpSettings['response']) {
  server = await startScriptedServer(responder);
  const settings: HttpSettings = {
    kind: 'http',
    url: `${server.origin}/agent`,
    method: 'POST',
    headers: {},
    request_template: '{"q": {{question}}}',
    response,
  };
  return new HttpTarget(settings, { secrets: new EnvSecretResolver({}), targetId: 'orchestrator' });
}

describe('HttpTarget reads tokens, cost, model and resolved entities from the answer (JSONPath)', () => {
  it("a custom orchestrator that reports its sub-agents' usage is not $0", async () => {
    const target = await targetWith(
      () => ({
        body: {
          answer: 'Ann has 2 orders.',
          route: { agent: 'orders', entities: { customer_id: 'C-42' } },
          usage: [
            { agent: 'router', input_tokens: 120, output_tokens: 8, cost: 0.0003 },
            { agent: 'orders', input_tokens: '300', output_tokens: 40, cost: 0.0011 },
          ],
          model: 'orchestrator-v3',
        },
      }),
      {
        answer_path: '$.answer',
        agent_path: '$.route.agent',
        entities_path: '$.route.entities',
        input_tokens_path: '$.usage[*].input_tokens',
        output_tokens_path: '$.usage[*].output_tokens',
        cost_path: '$.usage[*].cost',
        model_path: '$.model',
      },
    );
    const result = await target.invoke(testCase('tc-1', 'orders of ann?'));
    expect(result).toMatchObject({
      ok: true,
      agent: 'orders',
      entities: { customer_id: 'C-42' },
      input_tokens: 420,
      output_tokens: 48,
      client_version: 'orchestrator-v3',
    });
    expect(result.ok && result.cost_usd).toBeCloseTo(0.0014, 12);
  });

  it('figures that are missing or unreadable are 0, never a failure; entities given as JSON text are parsed', () => {
    const json = { tokens: 'many', cost: -3, entities: '{"city":"Paris"}' };
    expect(
      extractUsage(json, {
        input_tokens_path: '$.tokens',
        output_tokens_path: '$.nothing',
        cost_path: '$.cost',
        model_path: '$.model',
        entities_path: '$.entities',
      }),
    ).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      client_version: null,
      entities: { city: 'Paris' },
    });
    expect(extractUsage({ entities: [1, 2] }, { entities_path: '$.entities' })).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      client_version: null,
    });
  });
});
