import { Command } from 'commander';

/** `evalp cases` (being built). */
export function casesCommand(): Command {
  return new Command('cases').description('import, export and list test cases');
}
