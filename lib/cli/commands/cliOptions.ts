import type { Command } from 'commander';
import { CliError } from '../cliError.js';

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90s", "30m", "2h", "500ms", or a bare number of seconds -> milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) throw new CliError(`${flag} must be a duration such as 90s, 30m or 2h (got "${text}")`);
  const ms = Number(m[1]) * UNITS_MS[m[2] ?? 's']!;
  if (!(ms > 0)) throw new CliError(`${flag} must be more than zero`);
  return ms;
}

/**
 * Commander exits 1 on a bad flag or a missing argument; exit 1 means a failed gate (a regression), so main.ts
 * applies this to every command: usage errors become CliErrors, reported with exit 2. Help and version exit 0.
 */
export function usageErrorsExit2(command: Command): Command {
  return command.configureOutput({ outputError: () => undefined }).exitOverride((err) => {
    if (err.exitCode === 0) process.exit(0);
    // a command group called without its subcommand: commander has printed the group's help
    if (err.code === 'commander.help' || err.code === 'commander.helpDisplayed') throw new CliError('name a command (listed above)');
    throw new CliError(err.message.replace(/^error: /, ''));
  });
}
