import { Command } from 'commander';

/** `evalp targets` (being built). */
export function targetsCommand(): Command {
  return new Command('targets').description('manage target systems');
}
