import { createReadStream, statSync } from 'node:fs';

/** The outputs file held in memory: one raw JSON line per test case id (parsed only when the case is invoked). */
export interface ReplayIndex {
  path: string;
  /** test_case_id -> the line, as read (no copy, no parse); the last line for an id wins */
  lines: Map<string, string>;
  /** lines whose test case id could not be read (not JSON, no string/number `test_case_id`) */
  unreadable: { count: number; first_line?: number };
  mtimeMs: number;
  size: number;
}

/** The common writer's line start, `{"test_case_id":"id"`, read without parsing the line. */
const LEADING_ID = /^\s*\{\s*"test_case_id"\s*:\s*"([^"\\]*)"/;

/** The test case id of one line, or undefined when the line has none. */
export function lineTestCaseId(line: string): string | undefined {
  const match = LEADING_ID.exec(line);
  if (match) return match[1];
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const id = (record as { test_case_id?: unknown }).test_case_id;
  if (typeof id === 'string' && id !== '') return id;
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
}

/**
 * Streams a JSONL file into a ReplayIndex. Only the test case id of each line is read at load (a regex on the line
 * start, or one JSON.parse when the line starts otherwise); the rest is parsed when the case is invoked. Blank
 * lines are skipped, CRLF is accepted, unreadable lines are counted (the first one's number is kept).
 * Rejects with the fs error when the file cannot be read.
 */
export async function loadReplayIndex(path: string): Promise<ReplayIndex> {
  const stat = statSync(path); // before reading: a write during the read shows up as a later change
  const lines = new Map<string, string>();
  const unreadable: ReplayIndex['unreadable'] = { count: 0 };
  let lineNumber = 0;
  const take = (raw: string): void => {
    lineNumber++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const id = lineTestCaseId(line);
    if (id === undefined) {
      if (unreadable.count++ === 0) unreadable.first_line = lineNumber;
      return;
    }
    lines.set(id, line);
  };
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest === '' ? (chunk as string) : rest + (chunk as string);
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest !== '') take(rest);
  return { path, lines, unreadable, mtimeMs: stat.mtimeMs, size: stat.size };
}
