/**
 * The function app's entry: importing it registers every function (HTTP API, run orchestrator and activities,
 * stage workers, statistics feed, schedules). Registrations only; nothing runs at import time.
 */
import './http/routes.js';
import './durable/runEvaluation.js';
import './queues/caseWorkers.js';
import './queues/alertNotifications.js';
import './feeds/runStatsFeed.js';
import './timers/clientSchedules.js';
