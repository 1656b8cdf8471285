import { Command } from 'commander';

/** `evalp suites` (being built). */
export function suitesCommand(): Command {
  return new Command('suites').description('manage test suites');
}
