import { Command } from 'commander';

/** `evalp keys` (being built). */
export function keysCommand(): Command {
  return new Command('keys').description('create, list and revoke API keys');
}
