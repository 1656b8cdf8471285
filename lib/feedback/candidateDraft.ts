import { createHash } from 'node:crypto';
import {
  CandidateCaseDraftSchema,
  MAX_ID_CHARACTERS,
  type CandidateCaseDraft,
  type ConversationTurnInput,
  type ExpectedToolCall,
  type FeedbackCandidate,
  type FeedbackInteraction,
  type LoggedToolCall,
} from '../domain/index.js';
import { toolSet } from './questionSimilarity.js';

export type CandidateReason = FeedbackCandidate['reason'];

/** The tag every candidate case carries, and the `metadata.source` of an approved one. */
export const FEEDBACK_TAG = 'production-feedback';
export const FEEDBACK_SOURCE = 'production_feedback';

/**
 * Why an interaction becomes a candidate, or undefined when it does not: a correction (`corrected`), else a
 * `failed` or `thumbs_down` flag. A thumbs-up or unflagged interaction is only stored.
 */
export function candidateReason(interaction: FeedbackInteraction): CandidateReason | undefined {
  if (interaction.correction) return 'corrected';
  if (interaction.flag === 'failed' || interaction.flag === 'thumbs_down') return interaction.flag;
  return undefined;
}

/** `fb-<interaction id>`, or `fb-<sha256 prefix>` when that would pass the id length limit. */
export function caseIdFor(interactionId: string): string {
  const id = `fb-${interactionId}`;
  return [...id].length <= MAX_ID_CHARACTERS ? id : `fb-${createHash('sha256').update(interactionId).digest('hex').slice(0, 40)}`;
}

/** The question an interaction asks: its question, or a conversation's first user message. */
export function questionOf(interaction: FeedbackInteraction): string {
  return interaction.question ?? interaction.turns![0]!.user;
}

const asExpected = (calls: readonly LoggedToolCall[]): ExpectedToolCall[] =>
  calls.map((c) => ({ tool_name: c.tool_name, arguments: { ...c.arguments } }));

export interface DraftResult {
  draft: CandidateCaseDraft;
  /** what the reviewer must supply */
  needs: FeedbackCandidate['needs'];
  /** the tools the draft expects, else the tools the agent called */
  tools: string[];
}

/**
 * The case a candidate proposes. Single question: `nl_query` is the question; the expected calls are the
 * correction's, or (a correction of the answer only) the calls the agent made; a flagged interaction without a
 * correction has none yet (`needs: ['expected_tool_calls']`). The expected answer is the correction's answer.
 * Conversation: the earlier turns expect what the agent did in them (they were not corrected), the last turn
 * takes the correction the same way. `category` comes from the interaction or, failing that, from
 * `inferredCategory` (the nearest existing case calling the same tools); tags are `production-feedback`, the
 * reason, and the interaction's own.
 */
export function draftOf(
  interaction: FeedbackInteraction,
  reason: CandidateReason,
  createdAt: string,
  inferredCategory?: string,
): DraftResult {
  const correction = interaction.correction;
  const lastCalls = interaction.turns ? interaction.turns[interaction.turns.length - 1]!.tool_calls : interaction.tool_calls;
  const expected: ExpectedToolCall[] | undefined = correction?.tool_calls ?? (correction ? asExpected(lastCalls) : undefined);
  const needs: FeedbackCandidate['needs'] = expected === undefined ? ['expected_tool_calls'] : [];
  const category = interaction.category ?? inferredCategory;
  const allExpected = [...(interaction.turns ?? []).slice(0, -1).flatMap((t) => t.tool_calls), ...(expected ?? [])];
  const metadata: CandidateCaseDraft['metadata'] = {
    complexity_level: Math.min(5, Math.max(1, allExpected.length)),
    tags: [...new Set([FEEDBACK_TAG, reason, ...interaction.tags])],
    source: FEEDBACK_SOURCE,
    created_at: createdAt,
    ...(category ? { category } : {}),
    ...(interaction.api_version ? { api_version: interaction.api_version } : {}),
  };
  const id = caseIdFor(interaction.id);
  const tools = toolSet(expected ?? (interaction.turns ? interaction.turns.flatMap((t) => t.tool_calls) : interaction.tool_calls));
  if (interaction.turns) {
    const turns: ConversationTurnInput[] = interaction.turns.map((turn, i, all) =>
      i < all.length - 1
        ? { user: turn.user, expected_tool_calls: asExpected(turn.tool_calls) }
        : {
            user: turn.user,
            expected_tool_calls: expected ?? [],
            ...(correction?.answer ? { expected_nl_response: correction.answer } : {}),
          },
    );
    return { draft: CandidateCaseDraftSchema.parse({ id, turns, metadata }), needs, tools };
  }
  return {
    draft: CandidateCaseDraftSchema.parse({
      id,
      nl_query: interaction.question!,
      ...(expected ? { expected_tool_calls: expected } : {}),
      ...(correction?.answer ? { expected_nl_response: correction.answer } : {}),
      metadata,
    }),
    needs,
    tools,
  };
}
