// How quiet hours are written ("21:00-08:00"), checked at every boundary; the engine reads them
// (engine/messaging/quiet-hours.ts).
export const QUIET_HOURS_RE = /^\s*([01]?\d|2[0-3]):([0-5]\d)\s*-\s*([01]?\d|2[0-3]):([0-5]\d)\s*$/;
