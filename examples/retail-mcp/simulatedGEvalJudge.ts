/**
 * The simulated G-Eval judge of the scripted model server: answers GEvalJudge's per-criterion requests
 * (`response_format.json_schema.name` = `criterion_<name>`) with `{analysis, score}` and, when asked
 * (`logprobs: true`), token log-probabilities whose alternatives at the score digit spread over 1-5, so the
 * platform's probability weighting has something to weigh. It is NOT a language model: it measures word and number
 * overlap, deterministically, and its analysis says so.
 *
 * Per criterion a quality q in [0, 1]:
 * - correctness: the share of the reference's numbers (reference answer and key facts) found in the answer (0.7) and
 *   of its content words (0.3); words only when the reference has no number;
 * - completeness: the share of the reference's content words found in the answer;
 * - faithfulness: the share of the answer's numbers that appear in the API data, the question or the reference (1
 *   when the answer has none);
 * - relevance: the share of the answer's content words that appear in the question, the reference or the API data;
 * - clarity: 1 for an answer of 3 to 120 words, else 0.5; any other criterion: as completeness.
 * The distribution over the scores is triangular around e = 1 + 4q (p(k) proportional to max(0, 1 - |k - e|) +
 * 0.02), the integer score its mode; so the weighted score is close to e and the integer is a rounding of it.
 */
type Fields = Record<string, unknown>;

export const GEVAL_SCHEMA_PREFIX = 'criterion_';

const STOP = new Set(
  'the and for are was were has have had with that this from your you our its not but can will any all per into than then they them their there what which when who how did does also been out one'.split(
    ' ',
  ),
);

function numbers(text: string): Set<string> {
  const found = text.replace(/(\d),(?=\d{3})/g, '$1').match(/\d+(?:\.\d+)?/g) ?? [];
  return new Set(found.map((n) => String(Number(n))));
}

function contentWords(text: string): Set<string> {
  const found = text.toLowerCase().match(/[a-z][a-z-]{2,}/g) ?? [];
  return new Set(found.filter((w) => !STOP.has(w)));
}

const share = (wanted: Set<string>, have: Set<string>): number | null => {
  if (wanted.size === 0) return null;
  let hit = 0;
  for (const w of wanted) if (have.has(w)) hit++;
  return hit / wanted.size;
};

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The quality of the answer on one criterion (0-1) and a sentence saying how it was measured. */
export function simulatedQuality(criterion: string, parts: Record<string, string>): { q: number; why: string } {
  const reference = `${parts.reference_answer ?? ''}\n${parts.key_facts ?? ''}`;
  const answer = parts.candidate_answer ?? '';
  const context = `${parts.question ?? ''}\n${reference}\n${parts.api_data ?? ''}`;
  const refNums = numbers(reference);
  const ansNums = numbers(answer);
  const refWords = contentWords(reference);
  const ansWords = contentWords(answer);
  const numCov = share(refNums, ansNums);
  const wordCov = share(refWords, ansWords) ?? 0.5;
  switch (criterion) {
    case 'correctness': {
      const q = numCov === null ? wordCov : 0.7 * numCov + 0.3 * wordCov;
      return {
        q,
        why: `${numCov === null ? 'no reference numbers' : `${round(numCov)} of the reference numbers`}, ${round(wordCov)} of its words in the answer`,
      };
    }
    case 'faithfulness': {
      const grounded = share(ansNums, numbers(context));
      return {
        q: grounded ?? 1,
        why: grounded === null ? 'no numbers in the answer' : `${round(grounded)} of the answer's numbers found in the data`,
      };
    }
    case 'relevance': {
      const onTopic = share(ansWords, contentWords(context)) ?? 0;
      return { q: onTopic, why: `${round(onTopic)} of the answer's words appear in the question, reference or data` };
    }
    case 'clarity': {
      const n = answer.split(/\s+/).filter(Boolean).length;
      return { q: n >= 3 && n <= 120 ? 1 : 0.5, why: `${n} words` };
    }
    default:
      return { q: wordCov, why: `${round(wordCov)} of the reference's words in the answer` };
  }
}

/** p(1)..p(5): triangular around 1 + 4q, smoothed. */
export function scoreDistribution(q: number): number[] {
  const e = 1 + 4 * Math.min(1, Math.max(0, q));
  const raw = [1, 2, 3, 4, 5].map((k) => Math.max(0, 1 - Math.abs(k - e)) + 0.02);
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((p) => p / total);
}

/** Tokens as a model would stream them (words, single digits, punctuation), each certain except the score digit. */
function tokenLogprobs(content: string, digitAt: number, probabilities: number[]) {
  const tokens = content.match(/\s*[A-Za-z_]+|\s*[0-9]|\s*[^A-Za-z_0-9\s]|\s+/g) ?? [];
  let offset = 0;
  return tokens.map((token) => {
    const start = offset;
    offset += token.length;
    if (digitAt >= start && digitAt < offset) {
      const top = probabilities.map((p, i) => ({ token: String(i + 1), logprob: Math.log(p), bytes: null }));
      top.sort((a, b) => b.logprob - a.logprob);
      return { token, logprob: top.find((a) => a.token === token)!.logprob, bytes: null, top_logprobs: top };
    }
    return { token, logprob: 0, bytes: null, top_logprobs: [{ token, logprob: 0, bytes: null }] };
  });
}

/** The chat-completions reply to one G-Eval criterion request. */
export function gevalAnswer(body: Fields, model: string): [number, Fields] {
  const messages = (body.messages ?? []) as Fields[];
  const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
  const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const criterion = /Evaluation criterion: ([a-z0-9_]+)/.exec(system)?.[1] ?? 'unknown';
  const parts: Record<string, string> = {};
  for (const tag of ['question', 'reference_answer', 'key_facts', 'api_data', 'candidate_answer'])
    parts[tag] = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(user)?.[1] ?? '';
  const { q, why } = simulatedQuality(criterion, parts);
  const probabilities = scoreDistribution(q);
  const score = probabilities.indexOf(Math.max(...probabilities)) + 1;
  const content = JSON.stringify({ analysis: `simulated judge (word and number overlap, not an LLM): ${criterion}: ${why}.`, score });
  const digitAt = content.lastIndexOf(`"score":${score}`) + `"score":`.length;
  const logprobs = body.logprobs === true ? { content: tokenLogprobs(content, digitAt, probabilities), refusal: null } : null;
  return [
    200,
    {
      id: `chatcmpl-sim-geval-${criterion}`,
      object: 'chat.completion',
      created: 1_764_115_200,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs }],
      usage: {
        prompt_tokens: Math.ceil(JSON.stringify(body).length / 4),
        completion_tokens: Math.ceil(content.length / 4),
        total_tokens: Math.ceil(JSON.stringify(body).length / 4) + Math.ceil(content.length / 4),
      },
    },
  ];
}
