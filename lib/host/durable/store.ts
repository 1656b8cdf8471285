/**
 * SQLite persistence of the task hub's instances, histories and inboxes. Every method that changes more than one
 * row does it in one transaction; commitEpisode applies a whole episode (and deletes the inbox rows it consumed)
 * atomically, so a crash before the commit replays the same episode again.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { EpisodeDecision } from './episode.js';
import { historyEvent, reviveEvent, serializeEvent, toJsonText, type HistoryEvent } from './historyEvents.js';
import { createTaskHubSchema } from './schema.js';
import { isRuntimeStatus, isTerminal, type InstanceRecord, type RuntimeStatus } from './status.js';
import { prepareStatements, type InstanceRow, type Statements } from './storeStatements.js';

export interface InboxEntry {
  id: number;
  executionId: string | null;
  event: HistoryEvent;
}

export interface NewInstance {
  instanceId: string;
  name: string;
  inputJson: string;
  parent?: { instanceId: string; taskId: number; executionId: string };
}

export type CreateResult = { created: true; executionId: string } | { created: false; status: RuntimeStatus };
export type TerminateResult = 'terminated' | 'notFound' | 'alreadyTerminal';
export type RaiseResult = 'raised' | 'notFound' | 'gone';

export interface InstanceFilter {
  createdTimeFrom?: number;
  createdTimeTo?: number;
  runtimeStatus?: readonly RuntimeStatus[];
}

function toRecord(row: InstanceRow): InstanceRecord {
  if (!isRuntimeStatus(row.status)) throw new Error(`Corrupt task hub row: instance '${row.instance_id}' has status '${row.status}'.`);
  return {
    instanceId: row.instance_id,
    name: row.name,
    executionId: row.execution_id,
    status: row.status,
    inputJson: row.input,
    outputJson: row.output,
    customStatusJson: row.custom_status,
    parentInstanceId: row.parent_instance_id,
    parentTaskId: row.parent_task_id,
    parentExecutionId: row.parent_execution_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class TaskHubStore {
  readonly #db: Database.Database;
  readonly #sql: Statements;

  constructor(db: Database.Database) {
    createTaskHubSchema(db);
    this.#db = db;
    this.#sql = prepareStatements(db);
  }

  getInstance(instanceId: string): InstanceRecord | undefined {
    const row = this.#sql.selectInstance.get(instanceId);
    return row ? toRecord(row) : undefined;
  }

  loadHistory(instanceId: string): HistoryEvent[] {
    return this.#sql.selectHistory.all(instanceId).map((row) => reviveEvent(row.event, true));
  }

  /** Creates the instance (replacing a finished one with that id) and queues its ExecutionStarted, atomically. */
  createInstance(spec: NewInstance, now: number): CreateResult {
    return this.#db.transaction(() => this.#createInstance(spec, now))();
  }

  raiseEvent(instanceId: string, eventName: string, dataJson: string, now: number): RaiseResult {
    const row = this.#sql.selectInstance.get(instanceId);
    if (!row) return 'notFound';
    if (isTerminal(toRecord(row).status)) return 'gone';
    this.#enqueue(instanceId, null, historyEvent.eventRaised(new Date(now), eventName, dataJson), now);
    return 'raised';
  }

  /** Ids of instances with visible inbox events, oldest event first. */
  dueInstances(now: number, limit: number): string[] {
    return this.#sql.dueInstances.all(now, limit).map((row) => row.instance_id);
  }

  readInbox(instanceId: string, now: number, limit: number): InboxEntry[] {
    return this.#sql.readInbox.all(instanceId, now, limit).map((row) => ({
      id: row.id,
      executionId: row.execution_id,
      event: reviveEvent(row.event, false),
    }));
  }

  /** Deletes inbox rows that need no episode (events for finished instances or older executions). */
  dropInbox(ids: readonly number[]): void {
    this.#db.transaction(() => ids.forEach((id) => this.#sql.deleteInboxRow.run(id)))();
  }

  /** Earliest future inbox visibility (a durable timer), if any. */
  nextVisibleAt(now: number): number | undefined {
    return this.#sql.nextVisible.get(now)?.at ?? undefined;
  }

  /**
   * Applies one episode in one transaction. Returns the resulting status, or undefined when the instance changed
   * meanwhile (terminated, purged, restarted): then only the consumed inbox rows are deleted.
   */
  commitEpisode(snapshot: InstanceRecord, consumed: readonly number[], decision: EpisodeDecision, now: number): RuntimeStatus | undefined {
    return this.#db.transaction(() => {
      consumed.forEach((id) => this.#sql.deleteInboxRow.run(id));
      const row = this.#sql.selectInstance.get(snapshot.instanceId);
      if (!row || row.execution_id !== snapshot.executionId || isTerminal(toRecord(row).status)) return undefined;
      return this.#applyDecision(snapshot, decision, now);
    })();
  }

  terminate(instanceId: string, reason: string, now: number): TerminateResult {
    return this.#db.transaction((): TerminateResult => {
      const row = this.#sql.selectInstance.get(instanceId);
      if (!row) return 'notFound';
      const record = toRecord(row);
      if (isTerminal(record.status)) return 'alreadyTerminal';
      const reasonJson = toJsonText(reason);
      this.#appendHistory(instanceId, [historyEvent.executionTerminated(new Date(now), reason)]);
      this.#sql.updateFinal.run('Terminated', reasonJson, record.customStatusJson, now, instanceId);
      this.#sql.deleteInbox.run(instanceId);
      this.#sql.deleteWork.run(instanceId);
      this.#notifyParent(record, 'Terminated', reasonJson, now);
      return 'terminated';
    })();
  }

  /** Deletes the instance, its history, inbox and work; returns 1 if it existed, else 0. */
  purge(instanceId: string): number {
    return this.#db.transaction(() => this.#purge(instanceId))();
  }

  /** Purges every instance matching the filter; returns their ids. */
  purgeWhere(filter: InstanceFilter): string[] {
    return this.#db.transaction(() => {
      const ids = this.#select(filter, Number.MAX_SAFE_INTEGER, 0).map((row) => row.instance_id);
      ids.forEach((id) => this.#purge(id));
      return ids;
    })();
  }

  listInstances(filter: InstanceFilter, limit: number, offset: number): InstanceRecord[] {
    return this.#select(filter, limit, offset).map(toRecord);
  }

  #select(filter: InstanceFilter, limit: number, offset: number): InstanceRow[] {
    const statuses = filter.runtimeStatus ?? [];
    const statusClause = statuses.length > 0 ? `AND status IN (${statuses.map(() => '?').join(',')})` : '';
    const sql =
      'SELECT * FROM dt_instances WHERE created_at >= ? AND created_at <= ? ' +
      `${statusClause} ORDER BY created_at, instance_id LIMIT ? OFFSET ?`;
    const params = [filter.createdTimeFrom ?? 0, filter.createdTimeTo ?? Number.MAX_SAFE_INTEGER, ...statuses, limit, offset];
    return this.#db.prepare<unknown[], InstanceRow>(sql).all(...params);
  }

  #purge(instanceId: string): number {
    this.#sql.deleteHistory.run(instanceId);
    this.#sql.deleteInbox.run(instanceId);
    this.#sql.deleteWork.run(instanceId);
    return this.#sql.deleteInstance.run(instanceId).changes;
  }

  #createInstance(spec: NewInstance, now: number): CreateResult {
    const existing = this.#sql.selectInstance.get(spec.instanceId);
    if (existing) {
      const status = toRecord(existing).status;
      if (!isTerminal(status)) return { created: false, status };
      this.#purge(spec.instanceId);
    }
    const executionId = randomUUID();
    const parent = spec.parent;
    this.#sql.insertInstance.run({
      instance_id: spec.instanceId,
      name: spec.name,
      execution_id: executionId,
      status: 'Pending',
      input: spec.inputJson,
      parent_instance_id: parent?.instanceId ?? null,
      parent_task_id: parent?.taskId ?? null,
      parent_execution_id: parent?.executionId ?? null,
      created_at: now,
      updated_at: now,
    });
    this.#enqueue(spec.instanceId, executionId, historyEvent.executionStarted(new Date(now), spec.name, spec.inputJson), now);
    return { created: true, executionId };
  }

  #enqueue(instanceId: string, executionId: string | null, event: HistoryEvent, visibleAt: number): void {
    this.#sql.insertInbox.run(instanceId, executionId, serializeEvent(event), visibleAt);
  }

  #appendHistory(instanceId: string, events: readonly HistoryEvent[]): void {
    let seq = this.#sql.nextSeq.get(instanceId)?.seq ?? 0;
    for (const event of events) this.#sql.insertHistory.run(instanceId, seq++, serializeEvent(event));
  }

  #applyDecision(snapshot: InstanceRecord, decision: EpisodeDecision, now: number): RuntimeStatus {
    const { instanceId, executionId } = snapshot;
    const at = new Date(now);
    this.#appendHistory(instanceId, decision.append);
    for (const activity of decision.activities) {
      this.#sql.insertWork.run(instanceId, executionId, activity.taskId, activity.name, activity.inputJson, now);
    }
    for (const timer of decision.timers) {
      this.#enqueue(instanceId, executionId, historyEvent.timerFired(timer.fireAt, timer.timerId, timer.fireAt), timer.fireAt.getTime());
    }
    for (const child of decision.children) {
      const parent = { instanceId, taskId: child.taskId, executionId };
      const result = this.#createInstance({ instanceId: child.instanceId, name: child.name, inputJson: child.inputJson, parent }, now);
      if (!result.created) {
        const reason = `Could not start sub-orchestration '${child.name}': an instance with ID '${child.instanceId}' already exists and is ${result.status}.`;
        this.#enqueue(instanceId, executionId, historyEvent.subOrchestrationFailed(at, child.taskId, reason, ''), now);
      }
    }
    const outcome = decision.outcome;
    switch (outcome.kind) {
      case 'running':
        this.#sql.updateRunning.run(decision.customStatusJson, now, instanceId);
        return 'Running';
      case 'completed':
        return this.#finish(snapshot, 'Completed', outcome.outputJson, decision.customStatusJson, now);
      case 'failed':
        return this.#finish(snapshot, 'Failed', toJsonText(outcome.message), decision.customStatusJson, now);
      case 'continuedAsNew': {
        const nextExecution = randomUUID();
        const pending = this.#sql.selectPendingExternal.all(instanceId);
        this.#sql.deleteHistory.run(instanceId);
        this.#sql.deleteInbox.run(instanceId);
        this.#sql.continueAsNew.run(nextExecution, outcome.inputJson, decision.customStatusJson, now, instanceId);
        this.#enqueue(instanceId, nextExecution, historyEvent.executionStarted(at, snapshot.name, outcome.inputJson), now);
        for (const event of outcome.carryOver) this.#enqueue(instanceId, null, { ...event, IsPlayed: false }, now);
        for (const row of pending) this.#sql.insertInbox.run(instanceId, null, row.event, now);
        return 'ContinuedAsNew';
      }
    }
  }

  #finish(
    record: InstanceRecord,
    status: 'Completed' | 'Failed',
    outputJson: string,
    customStatusJson: string | null,
    now: number,
  ): RuntimeStatus {
    this.#sql.updateFinal.run(status, outputJson, customStatusJson, now, record.instanceId);
    this.#sql.deleteInbox.run(record.instanceId);
    this.#notifyParent(record, status, outputJson, now);
    return status;
  }

  #notifyParent(child: InstanceRecord, status: 'Completed' | 'Failed' | 'Terminated', outputJson: string, now: number): void {
    const { parentInstanceId, parentTaskId, parentExecutionId } = child;
    if (parentInstanceId === null || parentTaskId === null) return;
    const at = new Date(now);
    const event =
      status === 'Completed'
        ? historyEvent.subOrchestrationCompleted(at, parentTaskId, outputJson)
        : historyEvent.subOrchestrationFailed(
            at,
            parentTaskId,
            status === 'Failed'
              ? String(JSON.parse(outputJson))
              : `Sub-orchestration '${child.instanceId}' was terminated: ${String(JSON.parse(outputJson))}`,
            '',
          );
    this.#enqueue(parentInstanceId, parentExecutionId, event, now);
  }
}
