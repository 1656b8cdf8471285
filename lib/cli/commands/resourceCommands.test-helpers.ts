import type { Command } from 'commander';
import type { CommandIO } from './resourceCommands.js';

/** Runs a command in-process with `args` (as typed after `evalp <name>`), capturing its output and exit code. */
export async function runCommand(factory: (io: CommandIO) => Command, args: string[]): Promise<{ out: string; code: number | undefined }> {
  let out = '';
  let code: number | undefined;
  const io: CommandIO = { out: (text) => void (out += text), setExitCode: (c) => void (code = c) };
  await factory(io).parseAsync(args, { from: 'user' });
  return { out, code };
}
