import { app, type InvocationContext, type Timer } from '@azure/functions';
import { getServices, HOUSEKEEPING_SCHEDULE, housekeepingSettingsFromEnv, runHousekeeping } from '../../lib/app/index.js';

/**
 * Every hour: deletes /api/evaluate jobs older than EVALP_EVALUATE_JOB_RETENTION_DAYS (run, scorecards, questions,
 * suite, target; GET then answers 410) and applies retention (EVALP_RETENTION_DAYS): the scorecards, counted
 * outcomes and shards of runs past it, and old audit records; runs and their statistics stay. Resumable: a pass
 * stopped or killed half-way is finished by the next one. In Azure, Cosmos TTL expires most scorecards first.
 */
app.timer('housekeeping', {
  schedule: HOUSEKEEPING_SCHEDULE,
  runOnStartup: false,
  handler: async (_timer: Timer, context: InvocationContext) => {
    const services = await getServices();
    const { jobs, retention } = await runHousekeeping(services, housekeepingSettingsFromEnv(process.env));
    if (jobs.cleaned.length) context.log(`housekeeping: cleaned up evaluation jobs ${jobs.cleaned.join(', ')}`);
    if (retention.runs_expired.length || retention.audit_records_deleted)
      context.log(
        `housekeeping: retention expired runs ${retention.runs_expired.join(', ') || '-'}: ${retention.scorecards_deleted} scorecards, ${retention.outcomes_deleted} outcomes, ${retention.audit_records_deleted} audit records deleted`,
      );
    if (retention.resumable) context.log(`housekeeping: run ${retention.resumable} continues at the next pass`);
  },
});
