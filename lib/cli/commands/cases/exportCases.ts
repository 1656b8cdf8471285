import { createWriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ApiTarget } from '../../apiClient.js';
import { apiFetch } from './casesHttp.js';

export interface ExportCasesOptions {
  format: 'jsonl' | 'csv';
  /** filter query parameters as the list route takes them */
  filter: URLSearchParams;
  /** a file path; undefined writes to `stdout` */
  out?: string;
  stdout?: Writable;
}

/** Streams `GET /v1/test-cases/export` to a file or stdout (memory stays flat); returns how many cases matched. */
export async function exportCasesTo(target: ApiTarget, options: ExportCasesOptions): Promise<{ total: number; bytes: number }> {
  const query = new URLSearchParams(options.filter);
  query.set('format', options.format);
  const res = await apiFetch(target, 'GET', `v1/test-cases/export?${query}`);
  let bytes = 0;
  const source = Readable.fromWeb(res.body! as import('node:stream/web').ReadableStream<Uint8Array>);
  source.on('data', (chunk: Buffer) => void (bytes += chunk.length));
  if (options.out) await pipeline(source, createWriteStream(options.out));
  else await pipeline(source, options.stdout ?? process.stdout, { end: false });
  return { total: Number(res.headers.get('x-total-count') ?? 0), bytes };
}
