/**
 * The embedded platform as a real child process, for crash tests and the soak benchmark: launch a TypeScript entry
 * point under tsx, wait for lines it prints, kill it hard (SIGKILL) or stop it (SIGTERM).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../app/index.js';

export interface LaunchedProcess {
  child: ChildProcess;
  /** every stdout line so far */
  lines: string[];
  /** the first stdout line (so far or to come) matching `match`; rejects after `timeoutMs` or when the process exits first */
  line(match: RegExp, timeoutMs?: number): Promise<string>;
  /** the last characters of stderr (for error messages) */
  stderrTail(): string;
  /** SIGKILL, resolved once the process has exited */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), resolved once the process has exited */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** environment of the child (default: this process's, with the demo off) */
  env?: NodeJS.ProcessEnv;
  /** keep at most this many characters of stderr (default 20,000) */
  stderrLimit?: number;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));

/** Runs `node --import tsx <args>` in the package root: `args[0]` is the script (absolute or package-relative). */
export function launchTsProcess(args: string[], options: LaunchOptions = {}): LaunchedProcess {
  return launchNodeProcess(['--import', 'tsx', ...args], options);
}

/** Runs `node <args>` in the package root. */
export function launchNodeProcess(args: string[], options: LaunchOptions = {}): LaunchedProcess {
  const root = packageRoot();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: options.env ?? { ...process.env, EVALP_DEMO: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let stderr = '';
  const limit = options.stderrLimit ?? 20_000;
  // a 'line' listener that never stops reading: a closed pipe would make the child's next write fail with EPIPE
  createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-limit);
  });
  child.once('exit', () => waiters.splice(0).forEach((w) => w()));
  const line = (match: RegExp, timeoutMs = 60_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const fail = (why: string): void =>
        reject(new Error(`${why}; stdout: ${lines.slice(-20).join('\n')}\nstderr: ${stderr.slice(-2000)}`));
      const timer = setTimeout(() => fail(`no line matching ${match} within ${timeoutMs} ms`), timeoutMs);
      const check = (): void => {
        const hit = lines.find((l) => match.test(l));
        if (hit !== undefined) {
          clearTimeout(timer);
          resolve(hit);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          fail(`the process exited (${child.exitCode ?? child.signalCode}) before printing a line matching ${match}`);
        } else waiters.push(check);
      };
      check();
    });
  return {
    child,
    lines,
    line,
    stderrTail: () => stderr.slice(-2000),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface PlatformProcess extends LaunchedProcess {
  /** e.g. http://127.0.0.1:40123 (the API is under /api) */
  url: string;
  /** the admin key `evalp start` printed on the first start of this data dir (undefined on later starts) */
  firstStartKey: string | undefined;
}

export interface StartPlatformOptions extends LaunchOptions {
  /** how long the start may take (default 120 s) */
  timeoutMs?: number;
  /** 'sources' (default): lib/cli/main.ts under tsx; 'compiled': bin/evalp.js over dist/ (`npm run build` first; starts with less CPU) */
  from?: 'sources' | 'compiled';
}

/** `evalp start --no-demo --port 0 --data-dir <dataDir>`; resolves once it serves. */
export async function startPlatformProcess(dataDir: string, options: StartPlatformOptions = {}): Promise<PlatformProcess> {
  const args = ['start', '--no-demo', '--data-dir', dataDir, '--port', '0'];
  const launched =
    options.from === 'compiled'
      ? launchNodeProcess([join(packageRoot(), 'bin/evalp.js'), ...args], options)
      : launchTsProcess([join(packageRoot(), 'lib/cli/main.ts'), ...args], options);
  try {
    // the last line of a start: the first-start key (if any) is printed before it
    const serving = await launched.line(/^Serving at http/, options.timeoutMs ?? 120_000);
    const url = /^Serving at (http:\/\/\S+)\/api/.exec(serving)![1]!;
    const firstStartKey = launched.lines.find((l) => /^evalp_\S+$/.test(l));
    return { ...launched, url, firstStartKey };
  } catch (error) {
    await launched.kill();
    throw error;
  }
}
