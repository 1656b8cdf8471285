import { appendFileSync, createReadStream, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { canonicalCallKey } from '../../domain/index.js';
import { type CassetteEntry, CassetteEntrySchema, type CassetteStore, ExecutionConfigurationError } from '../../ports/index.js';

export interface LoadCassetteOptions {
  /** start empty when the file does not exist (record mode); otherwise a missing file is an error */
  createIfMissing?: boolean;
}

/**
 * A cassette in a JSONL file, one `CassetteEntry` per line, loaded into a Map of each key's line text: every line
 * is checked at load, and `get` parses the line again (a fresh object per call, a few µs). Holding text rather than
 * parsed entries keeps a large cassette out of the garbage collector's way: 53,000 recorded responses as objects
 * were ~75 MiB of small objects that every full collection of a 400,000-case run walked again.
 * - `load` streams the file line by line; blank lines are skipped; a line that is not JSON, not an entry, or
 *   whose `key` is not the canonical key of its tool_name + arguments throws, naming the file and line number.
 *   When a key appears on several lines the last one wins (re-recording appends, it never rewrites).
 * - `append` writes one line with appendFileSync: each entry is on disk when `append` returns, lines from one
 *   process never interleave, and the blocking write is nothing next to the live API call that produced it.
 *   Several processes recording into one file at once is not supported.
 */
export class JsonlCassette implements CassetteStore {
  private constructor(
    readonly path: string,
    private readonly entries: Map<string, string>,
  ) {}

  static async load(path: string, options: LoadCassetteOptions = {}): Promise<JsonlCassette> {
    if (!existsSync(path)) {
      if (!options.createIfMissing) {
        throw new ExecutionConfigurationError(`cassette ${path} does not exist; record one first (execution.mode "record")`);
      }
      mkdirSync(dirname(path), { recursive: true });
      return new JsonlCassette(path, new Map());
    }
    const entries = new Map<string, string>();
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const entry = parseLine(line, `cassette ${path} line ${lineNumber}`);
      entries.set(entry.key, line);
    }
    return new JsonlCassette(path, entries);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CassetteEntry | undefined {
    const line = this.entries.get(key);
    // checked at load (or written by `append`): parsed without the schema
    return line === undefined ? undefined : (JSON.parse(line) as CassetteEntry);
  }

  append(entry: CassetteEntry): void {
    const line = JSON.stringify(entry);
    appendFileSync(this.path, `${line}\n`, 'utf8');
    this.entries.set(entry.key, line);
  }
}

function parseLine(line: string, where: string): CassetteEntry {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new ExecutionConfigurationError(`${where}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = CassetteEntrySchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(line)'} ${issue.message}`).join('; ');
    throw new ExecutionConfigurationError(`${where}: not a cassette entry: ${issues}`);
  }
  const entry = parsed.data as CassetteEntry;
  const key = canonicalCallKey(entry);
  if (entry.key !== key) {
    throw new ExecutionConfigurationError(
      `${where}: key ${JSON.stringify(entry.key)} is not the canonical key of its tool_name and arguments (${JSON.stringify(key)})`,
    );
  }
  return entry;
}
