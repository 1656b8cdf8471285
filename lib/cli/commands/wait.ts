import { Command } from 'commander';

/** `evalp wait` (being built). */
export function waitCommand(): Command {
  return new Command('wait').description('wait for a run and fail on a regression');
}
