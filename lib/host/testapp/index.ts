/**
 * The embedded host's sample function app: one file per trigger kind, registered on import (as functions/ will).
 * Entry for captureRegistrations(() => import('./testapp/index.js')).
 */
import './items.js';
import './echo.js';
import './orders.js';
import './feeds.js';
import './timers.js';
import './durable.js';

export { CONTAINERS, ORCHESTRATION, QUEUES } from './names.js';
