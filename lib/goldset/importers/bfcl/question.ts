import { isJsonObject } from '../../../domain/index.js';

export type QuestionResult = { nl_query: string; note?: string } | { field: string; reason: string };

/**
 * The natural-language query of a BFCL question: a plain string (older files), a list of messages, or a list of turns
 * each a list of messages (only one turn: multi-turn entries are not importable). One user message becomes the query
 * as is; several messages (a system prompt, earlier turns) are joined as `[role] content` paragraphs, with a note,
 * because a TestCase holds one query, not a conversation.
 */
export function nlQueryOf(question: unknown): QuestionResult {
  if (typeof question === 'string') return question.trim() === '' ? { field: 'question', reason: 'is empty' } : { nl_query: question };
  if (!Array.isArray(question) || question.length === 0)
    return { field: 'question', reason: 'expected a string, a list of messages or a list of turns' };
  let messages: unknown[] = question;
  let prefix = 'question';
  if (question.every(Array.isArray)) {
    if (question.length > 1)
      return { field: 'question', reason: `has ${question.length} turns; multi-turn questions cannot be imported as one case` };
    messages = question[0] as unknown[];
    prefix = 'question.0';
  }
  const parsed: { role: string; content: string }[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isJsonObject(message) || typeof message['role'] !== 'string' || typeof message['content'] !== 'string') {
      return { field: `${prefix}.${index}`, reason: 'expected a message {"role": string, "content": string}' };
    }
    parsed.push({ role: message['role'], content: message['content'] });
  }
  const only = parsed.length === 1 ? parsed[0] : undefined;
  if (only !== undefined && only.role === 'user') {
    return only.content.trim() === '' ? { field: `${prefix}.0.content`, reason: 'is empty' } : { nl_query: only.content };
  }
  if (!parsed.some((m) => m.role === 'user')) return { field: prefix, reason: 'has no user message' };
  return {
    nl_query: parsed.map((m) => `[${m.role}] ${m.content}`).join('\n\n'),
    note: `${parsed.length} messages (${parsed.map((m) => m.role).join(', ')}) joined into nl_query as "[role] content" paragraphs`,
  };
}
