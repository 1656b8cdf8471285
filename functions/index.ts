/**
 * The function app's entry: importing it registers every function (HTTP API, run orchestrator and activities,
 * stage workers, statistics feed, schedules). Registrations only; nothing runs at import time.
 */
import './setup.js'; // first: app.setup must run before the worker reads the app's capabilities
import './http/routes.js';
import './http/dashboard.js';
import './durable/runEvaluation.js';
import './durable/runBenchmark.js';
import './queues/caseWorkers.js';
import './queues/alertNotifications.js';
import './queues/analyticsExport.js';
import './feeds/runStatsFeed.js';
import './timers/clientSchedules.js';
import './timers/runWatchdog.js';
import './timers/runTriggers.js';
import './timers/housekeeping.js';
