import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { vi } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { main } from '../main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `evalp ...args` in this process (main(), as bin/evalp.js does) and returns its exit code and output. */
export async function runCliInProcess(args: readonly string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
  process.exitCode = undefined;
  try {
    await main(['node', 'evalp', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Runs `evalp ...args` as a child process (the real exit code), from source through tsx. */
export function runCliProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const root = packageRoot();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'lib/cli/main.ts'), ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
