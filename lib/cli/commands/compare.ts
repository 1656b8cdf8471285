import { Command } from 'commander';

/** `evalp compare` (being built). */
export function compareCommand(): Command {
  return new Command('compare').description('compare two runs with paired statistics');
}
