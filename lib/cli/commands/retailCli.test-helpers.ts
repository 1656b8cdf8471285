import type { Command } from 'commander';
import { afterAll, beforeAll } from 'vitest';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import type { CommandIO } from './resourceCommands.js';
import { runCommand } from './resourceCommands.test-helpers.js';

/**
 * For one test file: the retail platform (lib/reports/testing) started before its tests and stopped after, and a
 * runner of `factory`'s command against it: `evalp <command> ...args` with `--url` and the platform's reader+runner
 * `--key` appended, returning its output and exit code.
 */
export function retailCommandForTests(factory: (io: CommandIO) => Command) {
  let retail: RetailPlatform | undefined;
  beforeAll(async () => {
    retail = await startRetailPlatform();
  }, 60_000);
  afterAll(async () => {
    await retail?.stop();
  });
  return (...args: string[]) => runCommand(factory, [...args, '--url', retail!.url, '--key', retail!.key]);
}
