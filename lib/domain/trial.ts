/**
 * Trials (DESIGN §12): a run with `trials: k` scores every case k times, one scorecard per trial. Stores key a
 * scorecard by (run_id, trial key): trial 1 keeps the key a scorecard always had (its case id), so data stored before
 * trials existed is neither duplicated nor re-keyed; trial t > 1 is `<case id>#trial-<t>`.
 */
export const TRIAL_KEY_SEPARATOR = '#trial-';

/** The storage key of one trial of a case: the case id for trial 1, `<case id>#trial-<t>` after. */
export function trialKey(testCaseId: string, trial = 1): string {
  return trial > 1 ? `${testCaseId}${TRIAL_KEY_SEPARATOR}${trial}` : testCaseId;
}

/** The storage key of a scorecard (or anything carrying its case id and trial). */
export function scorecardKeyOf(card: { test_case_id: string; trial?: number | undefined }): string {
  return trialKey(card.test_case_id, card.trial ?? 1);
}

/** The case id of a storage key (the key itself for trial 1). */
export function caseIdOfKey(key: string): string {
  const at = key.lastIndexOf(TRIAL_KEY_SEPARATOR);
  return at > 0 && /^\d+$/.test(key.slice(at + TRIAL_KEY_SEPARATOR.length)) ? key.slice(0, at) : key;
}
