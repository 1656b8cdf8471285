/** The outbound policy with nothing local allowed (EVALP_OUTBOUND_ALLOW=none, as in Azure), on a real embedded platform. */
import { hostname } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './routes/apiTestPlatform.test-helpers.js';

let strict: TestApi;
beforeAll(async () => {
  strict = await startTestApi({ EVALP_OUTBOUND_ALLOW: 'none' });
}, 60_000);
afterAll(() => strict?.stop());

it('refuses a DNS name resolving to loopback after resolution, and loopback literals, naming the reason', async () => {
  const question = [{ question: 'What is the status of order 1?', expected_outcome: { response: 'shipped' } }];
  const named = await strict.call('POST', 'evaluate', {
    key: strict.keys.runner,
    body: { target_url: `http://${hostname()}:8080/ask`, questions: question },
  });
  expect(named.status).toBe(400);
  expect(named.json.errors).toEqual([
    {
      path: 'body.target_url',
      message: expect.stringMatching(
        new RegExp(`^refused by the outbound URL policy: ${hostname()} \\(.+\\) is a (loopback|private-network) address`),
      ),
    },
  ]);
  const literal = await strict.call('POST', 'v1/target-systems', {
    key: strict.keys['platform-admin'],
    body: { id: 't', name: 't', settings: { kind: 'http', url: 'http://[::1]:8080/ask' } },
  });
  expect(literal.status).toBe(400);
  expect(literal.json.errors[0].message).toMatch(
    /::1 is a loopback address \(allowed only when EVALP_OUTBOUND_ALLOW includes "loopback"\)/,
  );
});
