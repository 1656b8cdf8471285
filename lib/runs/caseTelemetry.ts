import type { Attributes, Context } from '@opentelemetry/api';
import type { StageName } from '../domain/index.js';
import type { CaseState } from '../evaluation/index.js';
import type { TargetInvocation } from '../ports/index.js';
import { ATTRIBUTES, endSpan, recordPastSpan, recordStageDuration, SPANS, startSpan } from '../telemetry/index.js';
import type { CaseMessage } from './queues.js';

/**
 * The stage worker's telemetry (DESIGN §8), kept out of caseWorker.ts. Every case is traced under the traceparent
 * its message carries (the run's `eval.run` span), so one run is one trace across queues and hosts. Callers only
 * get here when tracing or metrics are on; with both off the worker allocates nothing for telemetry.
 */

/** Stages each queue runs: evaluate runs 1-2 inline after invoking the target. */
const STEP_STAGES: Record<CaseMessage['stage'], readonly StageName[]> = {
  evaluate: ['syntax', 'logic'],
  execute: ['execution'],
  judge: ['semantics'],
};

export function caseAttributes(message: CaseMessage, targetId?: string): Attributes {
  return {
    [ATTRIBUTES.runId]: message.run_id,
    [ATTRIBUTES.testCaseId]: message.test_case_id,
    ...(targetId ? { [ATTRIBUTES.targetId]: targetId } : {}),
  };
}

/** `eval.invoke_target_system` around the target call; a failed invocation is marked with its error code. */
export async function tracedInvoke(
  parent: Context,
  message: CaseMessage,
  targetId: string,
  invoke: () => Promise<TargetInvocation>,
): Promise<TargetInvocation> {
  const span = startSpan(SPANS.invokeTarget, parent, caseAttributes(message, targetId));
  let invocation: TargetInvocation;
  try {
    invocation = await invoke();
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
  if (!invocation.ok) span?.setAttribute(ATTRIBUTES.errorCode, invocation.error_code);
  endSpan(span, invocation.ok ? undefined : invocation.message);
  return invocation;
}

/** `eval.stage.execution` / `eval.stage.semantics` around a queued stage. */
export async function tracedStage(
  parent: Context,
  stage: 'execution' | 'semantics',
  message: CaseMessage,
  run: () => Promise<CaseState>,
): Promise<CaseState> {
  const span = startSpan(SPANS.stage[stage], parent, caseAttributes(message));
  try {
    const state = await run();
    const result = state.stages[stage];
    span?.setAttributes({
      [ATTRIBUTES.status]: result.status,
      ...(result.error_code ? { [ATTRIBUTES.errorCode]: result.error_code } : {}),
    });
    endSpan(span);
    return state;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/**
 * After one step of a case: `eval.stage.duration_ms` for each stage it ran, the inline stages 1-2 as spans (they
 * report their own duration; they ended just now, logic after syntax), and whether a stage could not score.
 */
export function observeStep(parent: Context | undefined, message: CaseMessage, state: CaseState): boolean {
  const stages = STEP_STAGES[message.stage];
  let couldNotScore = false;
  let end = parent && message.stage === 'evaluate' ? Date.now() : 0;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i]!;
    const result = state.stages[stage];
    if (result.status === 'skipped') continue;
    recordStageDuration(stage, result.duration_ms);
    if (result.status === 'error') couldNotScore = true;
    if (end) {
      const attributes = {
        ...caseAttributes(message),
        [ATTRIBUTES.status]: result.status,
        ...(result.error_code ? { [ATTRIBUTES.errorCode]: result.error_code } : {}),
      };
      recordPastSpan(SPANS.stage[stage as 'syntax' | 'logic'], parent, result.duration_ms, end, attributes, result.status !== 'passed');
      end -= result.duration_ms;
    }
  }
  return couldNotScore;
}
