#!/usr/bin/env node
import { Command } from 'commander';
import { ZodError } from 'zod';
import { evaluateCommand } from './commands/evaluate.js';
import { startCommand } from './commands/start.js';
import { statusCommand, submitCommand } from './commands/runs.js';
import { CliError } from './cliError.js';

export function buildProgram(): Command {
  return new Command('evalp')
    .description('EvalPlatform: evaluate NL-to-API agents through the syntax, logic, execution and semantics waterfall')
    .version('0.1.0')
    .addCommand(startCommand())
    .addCommand(submitCommand())
    .addCommand(statusCommand())
    .addCommand(evaluateCommand());
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    process.exitCode = 2;
    const name = (err as { name?: string }).name ?? '';
    // user-fixable: bad flags, a bad gold file, missing settings for a judge, target or stage-3 provider
    if (err instanceof CliError || name === 'GoldSetError' || name.endsWith('ConfigurationError')) {
      process.stderr.write(`evalp: ${(err as Error).message}\n`);
    } else if (err instanceof ZodError) {
      process.stderr.write(`evalp: invalid input:\n${err.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}\n`);
    } else if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`evalp: ${(err as Error).message}\n`);
    } else {
      throw err;
    }
  }
}

import { pathToFileURL } from 'node:url';
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
