import { Command } from 'commander';

/** `evalp dlq` (being built). */
export function dlqCommand(): Command {
  return new Command('dlq').description('list and replay dead-lettered messages');
}
