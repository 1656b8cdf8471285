import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';

/**
 * The outputs file indexed by test case id: where each case's line is (byte offset and length), not the lines
 * themselves, so a replay target over a file of any size holds a few dozen bytes per case (a 400,000-case file of
 * ~270 MiB was held whole, most of a run's memory). A line is read from the open file when its case is invoked
 * (one positioned read) and parsed then.
 */
export interface ReplayIndex {
  path: string;
  /** how many test case ids have a line (the last line of an id wins) */
  count: number;
  /**
   * The line of `testCaseId` as stored (CR stripped), read from the file now; undefined when the id has no line.
   * `stale` when the bytes at the indexed place no longer hold that id's line (the file was rewritten in place
   * before a reload noticed): reload the index.
   */
  line(testCaseId: string): string | undefined | typeof STALE;
  /** lines whose test case id could not be read (not JSON, no string/number `test_case_id`) */
  unreadable: { count: number; first_line?: number };
  mtimeMs: number;
  size: number;
  /** closes the file (the cache does, when it replaces or forgets the index) */
  close(): void;
}

/** What `ReplayIndex.line` returns when the file changed under the index. */
export const STALE = Symbol('stale replay index');

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

const CHUNK = 1 << 20;
/** bytes of a line decoded to find its id by the leading pattern (longer lines are decoded whole only when it misses) */
const HEAD = 512;
const NEWLINE = 0x0a;
/** bytes read at once when a line is looked up (the lines after it are usually next) */
const READ_BLOCK = 16 * 1024;
const CR = 0x0d;

/**
 * Indexes a JSONL file: reads it once in 1 MiB chunks and keeps, per test case id, where its line is. Only the id
 * of each line is read at load (a regex on the line's first bytes, or one JSON.parse when the line starts
 * otherwise). Blank lines are skipped, CRLF is accepted, unreadable lines are counted (the first one's number is
 * kept). The file stays open (so a file deleted meanwhile is still served) until `close()`. Rejects with the fs
 * error when the file cannot be read.
 */
export async function loadReplayIndex(path: string): Promise<ReplayIndex> {
  const fd = openSync(path, 'r');
  try {
    return await indexOpenFile(path, fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

async function indexOpenFile(path: string, fd: number): Promise<ReplayIndex> {
  const stat = fstatSync(fd); // before reading: a write during the read shows up as a later change
  const slots = new Map<string, number>();
  const offsets: number[] = [];
  const lengths: number[] = [];
  const unreadable: ReplayIndex['unreadable'] = { count: 0 };
  let lineNumber = 0;
  let buffer = Buffer.allocUnsafe(CHUNK);
  /** one line of `buffer[start, end)` at file offset `at` (end excludes the newline) */
  const take = (start: number, end: number, at: number): void => {
    lineNumber++;
    if (end > start && buffer[end - 1] === CR) end--;
    const id = idOf(buffer, start, end);
    if (id === undefined) {
      if (!isBlank(buffer, start, end) && unreadable.count++ === 0) unreadable.first_line = lineNumber;
      return;
    }
    const slot = slots.get(id);
    if (slot === undefined) {
      slots.set(id, offsets.length);
      offsets.push(at);
      lengths.push(end - start);
    } else {
      offsets[slot] = at;
      lengths[slot] = end - start;
    }
  };
  let chunks = 0;
  let filled = 0; // bytes of `buffer` holding data
  let base = 0; // file offset of buffer[0]
  for (;;) {
    if (filled === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2); // one line longer than the buffer: grow it
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const read = readSync(fd, buffer, filled, buffer.length - filled, base + filled);
    const end = filled + read;
    let start = 0;
    for (let nl = buffer.indexOf(NEWLINE, filled); nl >= 0 && nl < end; nl = buffer.indexOf(NEWLINE, start)) {
      take(start, nl, base + start);
      start = nl + 1;
    }
    if (read === 0) {
      if (start < end) take(start, end, base + start);
      break;
    }
    buffer.copy(buffer, 0, start, end); // the partial last line moves to the front
    base += start;
    filled = end - start;
    if (++chunks % 16 === 0) await setImmediate(); // a large file does not hold the host's other work
  }
  let open = true;
  // the last block read: cases are mostly invoked in file order, so one read serves the next lines too
  const block = Buffer.allocUnsafe(READ_BLOCK);
  let blockAt = 0;
  let blockBytes = 0;
  let lineBuffer = Buffer.allocUnsafe(4096);
  /** bytes [at, at + n) of the file (fewer at its end), from the block when it holds them */
  const bytesAt = (at: number, n: number): { buffer: Buffer; start: number; got: number } => {
    if (at >= blockAt && at + n <= blockAt + blockBytes) return { buffer: block, start: at - blockAt, got: n };
    if (n <= READ_BLOCK) {
      blockAt = at;
      blockBytes = readSync(fd, block, 0, READ_BLOCK, at);
      return { buffer: block, start: 0, got: Math.min(n, blockBytes) };
    }
    if (lineBuffer.length < n) lineBuffer = Buffer.allocUnsafe(Math.max(n, lineBuffer.length * 2));
    return { buffer: lineBuffer, start: 0, got: readSync(fd, lineBuffer, 0, n, at) };
  };
  return {
    path,
    count: slots.size,
    unreadable,
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    line(testCaseId) {
      const slot = slots.get(testCaseId);
      if (slot === undefined) return undefined;
      if (!open) return STALE;
      const length = lengths[slot]!;
      // the line and the byte after it: a whole line ends there (CR, LF or the end of the file)
      const { buffer, start, got } = bytesAt(offsets[slot]!, length + 1);
      const after = buffer[start + length];
      const ends = got === length + 1 ? after === NEWLINE || after === CR : got === length;
      if (!ends) return STALE;
      const line = buffer.toString('utf8', start, start + length);
      return lineTestCaseId(line) === testCaseId ? line : STALE;
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

function isBlank(buffer: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buffer[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

function idOf(buffer: Buffer, start: number, end: number): string | undefined {
  if (isBlank(buffer, start, end)) return undefined;
  const head = buffer.toString('utf8', start, Math.min(end, start + HEAD));
  const match = LEADING_ID.exec(head);
  if (match) return match[1];
  return lineTestCaseId(end - start <= HEAD ? head : buffer.toString('utf8', start, end));
}
