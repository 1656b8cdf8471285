import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Decision, ScriptedCall, Trial } from './decisions.js';
import { gevalAnswer, GEVAL_SCHEMA_PREFIX } from './simulatedGEvalJudge.js';

type Fields = Record<string, unknown>;

export interface ScriptedModelServer {
  origin: string;
  /** for OpenAI clients (`base_url` of an `openai` target) */
  openaiBaseUrl: string;
  /** for Anthropic clients (`base_url` of an `anthropic` target; the SDK appends /v1/messages) */
  anthropicBaseUrl: string;
  /** model requests answered, by protocol */
  requests: { openai: number; anthropic: number };
  close(): Promise<void>;
}

const DEFAULT_DECISIONS = join(dirname(fileURLToPath(import.meta.url)), 'decisions.jsonl');

/**
 * A scripted (simulated) model on 127.0.0.1 speaking OpenAI chat completions (`POST /v1/chat/completions`) and the
 * Anthropic Messages API (`POST /v1/messages`). It replays generated decisions (decisions.jsonl) turn by turn: the
 * case is found by the question, the turn by how many assistant turns the history holds, and the arguments of a
 * later call are filled in from the tool results the client sent back (`$from`). A tool result that is an error
 * makes it stop calling and say so. Without tools in the request it answers as a model without tools would. Trial n of
 * a case (counted per model and case) follows the decision's trials[(n - 1) % trials.length]. A conversation (several
 * user messages) is found by its first user message; the reply follows the trial's `conversation[k]` for the k-th user
 * message, its model turns and `$from` indices counted from that message on. Token counts are
 * estimates (4 characters a token). `model` must be one of the decisions' models (`simulated-model-a`, `-b`).
 */
export async function startScriptedModelServer(options: { decisionsPath?: string; port?: number } = {}): Promise<ScriptedModelServer> {
  const decisions = new Map<string, Decision>();
  for (const line of readFileSync(options.decisionsPath ?? DEFAULT_DECISIONS, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as Decision;
    decisions.set(`${d.model}\u0000${d.nl_query}`, d);
  }
  const trialsSeen = new Map<string, number>();
  const requests = { openai: 0, anthropic: 0 };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { error: { type: 'api_error', message: String(error) } }));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = (await readJson(req)) as Fields;
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      requests.openai++;
      return send(res, ...openaiAnswer(body));
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      requests.anthropic++;
      return send(res, ...anthropicAnswer(body));
    }
    send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  }

  /** The decision, trial and the results so far, in protocol-neutral form. */
  function step(
    model: string,
    question: string,
    hasTools: boolean,
    userTurn: number,
    assistantTurns: number,
    results: Array<{ content: string; isError: boolean }>,
  ) {
    const decision = decisions.get(`${model}\u0000${question}`);
    if (!decision)
      return {
        text: `(simulated model: no generated decision for model "${model}" and this question)`,
        calls: [] as Array<{ name: string; arguments: unknown }>,
      };
    if (!hasTools) return { text: decision.no_tools_answer, calls: [] };
    const key = `${model}\u0000${decision.test_case_id}`;
    if (userTurn === 0 && assistantTurns === 0) trialsSeen.set(key, (trialsSeen.get(key) ?? 0) + 1);
    const n = trialsSeen.get(key) ?? 1;
    const trial: Trial = decision.trials[(n - 1) % decision.trials.length]!;
    const reply = trial.conversation ? trial.conversation[userTurn] : userTurn === 0 ? trial : undefined;
    if (!reply) return { text: `(simulated model: the generated decision has no reply to user turn ${userTurn + 1})`, calls: [] };
    const failed = results.find((r) => r.isError || /^\{"error"/.test(r.content) || /^\{"status":\s*4\d\d/.test(r.content));
    if (failed && !trial.continue_after_error)
      return { text: `I could not complete that: the store's system answered ${failed.content.slice(0, 200)}`, calls: [] };
    const turn = reply.turns[assistantTurns];
    if (!turn) return { text: reply.answer, calls: [] };
    const parsed = results.map((r) => safeJson(r.content));
    return { text: null, calls: turn.map((call) => ({ name: call.name, arguments: fill(call, parsed) })) };
  }

  function openaiAnswer(body: Fields): [number, Fields] {
    const messages = (body.messages ?? []) as Fields[];
    if (body.model === SIMULATED_JUDGE) return judgeAnswer(body, messages);
    const question = String(messages.find((m) => m.role === 'user')?.content ?? '');
    // a conversation: the reply to the latest user message, counting what came after it
    const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    const since = messages.slice(users[users.length - 1] ?? 0);
    const assistantTurns = since.filter((m) => m.role === 'assistant').length;
    const results = since.filter((m) => m.role === 'tool').map((m) => ({ content: String(m.content), isError: false }));
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const { text, calls } = step(String(body.model), question, hasTools, Math.max(0, users.length - 1), assistantTurns, results);
    const toolCalls = calls.map((call, i) => ({
      id: `call_${assistantTurns + 1}_${i}`,
      type: 'function',
      function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
    }));
    const message = { role: 'assistant', content: text, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    const out = JSON.stringify(message);
    return [
      200,
      {
        id: `chatcmpl-sim-${assistantTurns}`,
        object: 'chat.completion',
        created: 1_764_115_200,
        model: String(body.model),
        choices: [{ index: 0, message, finish_reason: toolCalls.length ? 'tool_calls' : 'stop', logprobs: null }],
        usage: usage(JSON.stringify(body).length, out.length, 'openai'),
      },
    ];
  }

  function anthropicAnswer(body: Fields): [number, Fields] {
    const messages = (body.messages ?? []) as Fields[];
    const first = messages[0]?.content;
    const question =
      typeof first === 'string'
        ? first
        : Array.isArray(first)
          ? String((first as Fields[]).find((b) => b.type === 'text')?.text ?? '')
          : '';
    // a user message that is not only tool results is a user turn; the reply counts what came after the latest one
    const isUserTurn = (m: Fields) =>
      m.role === 'user' && (!Array.isArray(m.content) || (m.content as Fields[]).some((b) => b.type !== 'tool_result'));
    const users = messages.flatMap((m, i) => (isUserTurn(m) ? [i] : []));
    const since = messages.slice(users[users.length - 1] ?? 0);
    const assistantTurns = since.filter((m) => m.role === 'assistant').length;
    const results: Array<{ content: string; isError: boolean }> = [];
    for (const m of since) {
      if (m.role !== 'user' || !Array.isArray(m.content)) continue;
      for (const block of m.content as Fields[]) {
        if (block.type === 'tool_result')
          results.push({
            content: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
            isError: block.is_error === true,
          });
      }
    }
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const { text, calls } = step(String(body.model), question, hasTools, Math.max(0, users.length - 1), assistantTurns, results);
    const content = [
      ...(text === null ? [] : [{ type: 'text', text }]),
      ...calls.map((call, i) => ({ type: 'tool_use', id: `toolu_${assistantTurns + 1}_${i}`, name: call.name, input: call.arguments })),
    ];
    return [
      200,
      {
        id: `msg_sim_${assistantTurns}`,
        type: 'message',
        role: 'assistant',
        model: String(body.model),
        content,
        stop_reason: calls.length ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: usage(JSON.stringify(body).length, JSON.stringify(content).length, 'anthropic', assistantTurns > 0),
      },
    ];
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    openaiBaseUrl: `${origin}/v1`,
    anthropicBaseUrl: origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** the model name of the simulated pairwise judge */
export const SIMULATED_JUDGE = 'simulated-judge';

/**
 * The simulated judge: G-Eval criterion requests go to simulatedGEvalJudge.ts; the pairwise one (PairwiseJudge's structured request): grades each answer by the share of the
 * reference answer's words and numbers it contains; a gap under 0.05 is a tie, and a gap under 0.1 goes to the answer
 * shown first (a generated position bias, which PairwiseJudge's swap turns into an inconsistent verdict = tie).
 */
function judgeAnswer(body: Fields, messages: Fields[]): [number, Fields] {
  const schema = ((body.response_format as Fields | undefined)?.json_schema as Fields | undefined)?.name;
  if (typeof schema === 'string' && schema.startsWith(GEVAL_SCHEMA_PREFIX)) return gevalAnswer(body, SIMULATED_JUDGE);
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const part = (tag: string) => new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)?.[1] ?? '';
  const reference = words(part('reference_answer'));
  const grade = (answer: string) => {
    if (reference.size === 0) return 0.5;
    const have = words(answer);
    let hit = 0;
    for (const w of reference) if (have.has(w)) hit++;
    return Math.round((hit / reference.size) * 1000) / 1000;
  };
  const score1 = grade(part('answer_1'));
  const score2 = grade(part('answer_2'));
  const gap = Math.abs(score1 - score2);
  const winner = gap < 0.05 ? 'tie' : gap < 0.1 ? '1' : score1 > score2 ? '1' : '2';
  const verdict = { reasoning: `simulated judge: reference overlap ${score1} vs ${score2}`, score_1: score1, score_2: score2, winner };
  const content = JSON.stringify(verdict);
  return [
    200,
    {
      id: 'chatcmpl-sim-judge',
      object: 'chat.completion',
      created: 1_764_115_200,
      model: SIMULATED_JUDGE,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: usage(JSON.stringify(body).length, content.length, 'openai'),
    },
  ];
}

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[$,]/g, '')
      .match(/[a-z0-9][a-z0-9.-]*[a-z0-9]|[a-z0-9]/g) ?? [],
  );
}

/** The call's arguments with `$from` references filled in from the parsed tool results so far. */
function fill(call: ScriptedCall, results: unknown[]): unknown {
  const args = call.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const out: Fields = {};
  for (const [key, value] of Object.entries(args)) {
    const ref = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields).$from : undefined;
    if (ref && typeof ref === 'object') {
      const { call: index, path } = ref as { call: number; path: string };
      out[key] = dig(results[index], path);
    } else out[key] = value;
  }
  return out;
}

function dig(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const part of path.split('.')) {
    if (typeof at !== 'object' || at === null) return null;
    at = (at as Fields)[part];
  }
  return at ?? null;
}

/** Estimated tokens (4 characters each); Anthropic turns after the first read the earlier prefix from the prompt cache. */
function usage(inChars: number, outChars: number, protocol: 'openai' | 'anthropic', cached = false): Fields {
  const input = Math.ceil(inChars / 4);
  const output = Math.ceil(outChars / 4);
  if (protocol === 'openai') return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  const cacheWrite = cached ? 0 : Math.floor(input * 0.6);
  const cacheRead = cached ? Math.floor(input * 0.6) : 0;
  return {
    input_tokens: input - cacheWrite - cacheRead,
    output_tokens: output,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : {};
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
