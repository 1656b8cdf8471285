import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderAnalyticsSink } from './folderAnalyticsSink.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('FolderAnalyticsSink', () => {
  it('writes under its folder, replaces a file on a second write, leaves no partial file, refuses names that escape', async () => {
    const root = mkdtempSync(join(tmpdir(), 'evalp-export-'));
    dirs.push(root);
    const sink = new FolderAnalyticsSink(root);
    const first = await sink.writeFile('run_id=r1/r1.parquet', new Uint8Array([1, 2, 3]));
    expect(first.location).toBe(join(root, 'run_id=r1', 'r1.parquet'));
    await sink.writeFile('run_id=r1/r1.parquet', new Uint8Array([4, 5]));
    expect([...readFileSync(first.location)]).toEqual([4, 5]);
    expect(readdirSync(join(root, 'run_id=r1'))).toEqual(['r1.parquet']);
    await expect(sink.writeFile('../outside.parquet', new Uint8Array([1]))).rejects.toThrow(/leaves the export folder/);
    await expect(sink.writeFile('a/../../x.parquet', new Uint8Array([1]))).rejects.toThrow(/leaves the export folder/);
    expect(sink.describe()).toContain(root);
  });
});
