import { Command } from 'commander';

/** `evalp clients` (being built). */
export function clientsCommand(): Command {
  return new Command('clients').description('manage clients');
}
