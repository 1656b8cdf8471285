import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DeadLetterPort } from '../../ports/index.js';
import { QUEUES, STAGE_QUEUE_NAMES } from '../../runs/index.js';
import { CliError } from '../cliError.js';

export type DlqBackend = 'embedded' | 'azure';

export interface OpenedDeadLetters {
  port: DeadLetterPort;
  /** where the queues are, for messages ("the embedded data in ./.evalplatform", "evalp.servicebus.windows.net") */
  where: string;
  close(): Promise<void>;
}

/** `evaluate`, `execute`, `judge` or the full queue names (`evaluate-cases`, ...). */
export function resolveQueueName(text: string): string {
  const byStage = (QUEUES as Record<string, string>)[text];
  if (byStage) return byStage;
  // the `-high` / `-low` siblings hold the dead letters of high- and low-priority runs on Service Bus
  if (STAGE_QUEUE_NAMES.includes(text)) return text;
  const names = Object.entries(QUEUES)
    .map(([stage, name]) => `${name} (${stage})`)
    .join(', ');
  throw new CliError(`unknown queue "${text}": the stage queues are ${names}`);
}

export function resolveBackend(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): DlqBackend {
  const value = (flag ?? env.EVALP_BACKEND ?? 'embedded').trim().toLowerCase();
  if (value === 'embedded' || value === 'azure') return value;
  throw new CliError(`--backend (or EVALP_BACKEND) must be "embedded" or "azure", got "${flag ?? env.EVALP_BACKEND}"`);
}

/**
 * The dead letters of the platform's queues: the embedded host's SQLite database in the data directory (default),
 * or Azure Service Bus (`ServiceBusConnection__fullyQualifiedNamespace`, DefaultAzureCredential: `az login` with the
 * Azure Service Bus Data Receiver and Data Sender roles). Modules are loaded for the chosen backend only.
 */
export async function openDeadLetters(
  backend: DlqBackend,
  options: { dataDir: string; env: Readonly<Record<string, string | undefined>> },
): Promise<OpenedDeadLetters> {
  if (backend === 'azure') {
    const { createServiceBusClient, SERVICE_BUS_SETTINGS } = await import('../../adapters/azure/index.js');
    const { ServiceBusDeadLetters } = await import('../../adapters/azure/index.js');
    let client;
    try {
      client = createServiceBusClient(options.env);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    return {
      port: new ServiceBusDeadLetters(client),
      where: options.env[SERVICE_BUS_SETTINGS.namespace]?.trim() || client.fullyQualifiedNamespace,
      close: () => client.close(),
    };
  }
  const dir = resolve(options.dataDir);
  const { HOST_DATABASE_FILE, openHostDatabase } = await import('../../host/index.js');
  if (!existsSync(join(dir, HOST_DATABASE_FILE))) {
    throw new CliError(`no embedded platform data in ${dir} (start it with \`evalp start\`, or pass --data-dir / EVALP_DATA_DIR)`);
  }
  const { SqliteQueueEngine } = await import('../../host/index.js');
  const { EmbeddedDeadLetters } = await import('../../adapters/embedded/index.js');
  const db = openHostDatabase(dir);
  return {
    port: new EmbeddedDeadLetters(new SqliteQueueEngine(db)),
    where: `the embedded data in ${dir}`,
    close: async () => void db.close(),
  };
}
