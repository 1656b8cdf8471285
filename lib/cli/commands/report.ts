import { Command } from 'commander';

/** `evalp report` (being built). */
export function reportCommand(): Command {
  return new Command('report').description('write a report of a run or a comparison');
}
