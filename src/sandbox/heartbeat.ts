// The heartbeat rule, the same for every worker that runs learner code (the spec worker, the
// learner worker, the learner-server worker): while it works, the worker posts a sign of life a few
// times a second; the page ends a worker that stays silent for HEARTBEAT_HARD_LIMIT_MS. Learner code
// that loops forever (`while (true) {}`) blocks the worker's timers, so silence means stuck, and
// ending the worker is the only way to stop it.

/** Silence after which the page ends a worker that runs learner code. */
export const HEARTBEAT_HARD_LIMIT_MS = 2000;
