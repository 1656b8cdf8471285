#!/usr/bin/env node
import { Command } from 'commander';
import { ZodError } from 'zod';
import { evaluateCommand } from './commands/evaluate.js';
import { startCommand } from './commands/start.js';
import { statusCommand, submitCommand } from './commands/runs.js';
import { CliError } from './cliError.js';
import { casesCommand } from './commands/cases.js';
import { suitesCommand } from './commands/suites.js';
import { targetsCommand } from './commands/targets.js';
import { clientsCommand } from './commands/clients.js';
import { keysCommand } from './commands/keys.js';
import { compareCommand } from './commands/compare.js';
import { reportCommand } from './commands/report.js';
import { waitCommand } from './commands/wait.js';
import { dlqCommand } from './commands/dlq.js';
import { agreementCommand } from './commands/agreement.js';
import { annotationsCommand } from './commands/annotations.js';

export function buildProgram(): Command {
  return new Command('evalp')
    .description('EvalPlatform: evaluate NL-to-API agents through the syntax, logic, execution and semantics waterfall')
    .version('0.1.0')
    .addCommand(startCommand())
    .addCommand(submitCommand())
    .addCommand(statusCommand())
    .addCommand(evaluateCommand())
    .addCommand(waitCommand())
    .addCommand(compareCommand())
    .addCommand(reportCommand())
    .addCommand(casesCommand())
    .addCommand(suitesCommand())
    .addCommand(targetsCommand())
    .addCommand(clientsCommand())
    .addCommand(keysCommand())
    .addCommand(dlqCommand())
    .addCommand(agreementCommand())
    .addCommand(annotationsCommand());
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
