// The public surface of lib/ncrontab: other folders import it from here.
export { NcrontabSyntaxError } from './ncrontabFields.js';
export { parseNcrontab } from './ncrontab.js';
export { assertTimeZone, nextZonedOccurrence } from './zonedOccurrence.js';
