import type { Command } from 'commander';
import { processIO, resourceCommand, type CommandIO } from './resourceCommands.js';
import { addSuiteVersionCommands } from './suiteVersions.js';

/** `evalp suites list|get|create --file|delete|publish|versions|diff`. */
export function suitesCommand(io: CommandIO = processIO): Command {
  const cmd = resourceCommand(
    {
      name: 'suites',
      description: 'manage test suites (static id lists or dynamic filters)',
      noun: 'test suite',
      collection: 'v1/test-suites',
      columns: [
        ['id', (s) => String(s.id)],
        ['name', (s) => String(s.name)],
        ['kind', (s) => String(s.kind)],
        ['cases', (s) => (s.kind === 'static' ? String(s.test_case_count) : `filter ${JSON.stringify(s.filter)}`)],
        ['updated', (s) => String(s.updated_at)],
      ],
    },
    io,
  );
  return addSuiteVersionCommands(cmd, io);
}
