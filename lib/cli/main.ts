#!/usr/bin/env node
import { Command } from 'commander';
import { ZodError } from 'zod';
import { evaluateCommand } from './commands/evaluate.js';
import { startCommand } from './commands/start.js';
import { statusCommand, submitCommand } from './commands/runs.js';
import { CliError } from './cliError.js';
import { casesCommand } from './commands/cases.js';
import { suitesCommand } from './commands/suites.js';
import { experimentsCommand } from './commands/experiments.js';
import { benchmarksCommand } from './commands/benchmarks.js';
import { targetsCommand } from './commands/targets.js';
import { clientsCommand } from './commands/clients.js';
import { keysCommand } from './commands/keys.js';
import { orgsCommand } from './commands/orgs.js';
import { compareCommand } from './commands/compare.js';
import { reportCommand } from './commands/report.js';
import { exportCommand } from './commands/exportRun.js';
import { waitCommand } from './commands/wait.js';
import { dlqCommand } from './commands/dlq.js';
import { usageErrorsExit2 } from './commands/cliOptions.js';
import { alertsCommand, failuresCommand, runsCommand } from './commands/readCommands.js';
import { agreementCommand } from './commands/agreement.js';
import { annotationsCommand } from './commands/annotations.js';
import { feedbackCommand } from './commands/feedback.js';
import { replayCommand } from './commands/replay.js';
import { catalogsCommand } from './commands/catalogs.js';
import { configCommand } from './commands/config.js';
import { setConfigFileFlag } from './cliConfig.js';

export function buildProgram(): Command {
  const program = new Command('evalp')
    .description('EvalPlatform: evaluate NL-to-API agents through the syntax, logic, execution and semantics waterfall')
    .version('0.1.0')
    // before the command: `evalp --config FILE submit --config RUN.json` (submit's own --config is a run's config)
    .enablePositionalOptions()
    .option('--config <file>', 'the configuration file (default: EVALP_CONFIG, else evalplatform.config.yaml here or above)')
    .hook('preAction', (root) => setConfigFileFlag((root.opts() as { config?: string }).config))
    .addCommand(startCommand())
    .addCommand(submitCommand())
    .addCommand(statusCommand())
    .addCommand(replayCommand())
    .addCommand(runsCommand())
    .addCommand(failuresCommand())
    .addCommand(alertsCommand())
    .addCommand(evaluateCommand())
    .addCommand(waitCommand())
    .addCommand(compareCommand())
    .addCommand(reportCommand())
    .addCommand(exportCommand())
    .addCommand(casesCommand())
    .addCommand(suitesCommand())
    .addCommand(targetsCommand())
    .addCommand(clientsCommand())
    .addCommand(keysCommand())
    .addCommand(orgsCommand())
    .addCommand(dlqCommand())
    .addCommand(agreementCommand())
    .addCommand(annotationsCommand())
    .addCommand(experimentsCommand())
    .addCommand(feedbackCommand())
    .addCommand(benchmarksCommand())
    .addCommand(catalogsCommand())
    .addCommand(configCommand());
  // one meaning per exit code in every command: a bad flag or a missing argument is a usage error (2), as in `wait`
  const everyCommand = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(everyCommand)];
  for (const cmd of everyCommand(program)) usageErrorsExit2(cmd);
  return program;
}

/**
 * Exit codes of every command: 0 ok; 1 a gate failed (a regression, `--fail-under`); 2 usage, bad input or
 * configuration (a message naming the flag, file, row and field; never a stack trace); 3 a run that failed, was
 * cancelled or timed out (`wait`, `submit --wait`).
 */
export const EXIT = { ok: 0, gate: 1, usage: 2, runFailed: 3 } as const;

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    process.exitCode = EXIT.usage;
    const name = (err as { name?: string }).name ?? '';
    // user-fixable: bad flags, a bad gold file, missing settings for a judge, target or stage-3 provider
    if (err instanceof CliError || name === 'GoldSetError' || name.endsWith('ConfigurationError')) {
      process.stderr.write(`evalp: ${(err as Error).message}\n`);
    } else if (err instanceof ZodError) {
      process.stderr.write(
        `evalp: invalid input:\n${err.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}\n`,
      );
    } else if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EACCES') {
      process.stderr.write(`evalp: ${(err as Error).message}\n`);
    } else {
      // not expected: still no stack trace unless asked for (EVALP_DEBUG=1)
      const detail = process.env.EVALP_DEBUG ? `\n${(err as Error).stack ?? String(err)}` : ' (EVALP_DEBUG=1 shows the stack)';
      process.stderr.write(`evalp: unexpected error: ${(err as Error).message ?? String(err)}${detail}\n`);
    }
  }
}

import { pathToFileURL } from 'node:url';
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
