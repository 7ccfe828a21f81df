// The one timer behind the idle rules of the Streamable HTTP handlers (idle sessions, idle stream
// connections): it runs `sweep` a few times per idle limit while there is anything to sweep (the
// owner starts it with the first session or stream and stops it with the last), so an idle server
// holds no timer, and nothing outlives its limit by more than a quarter of it. Unref'd where the
// platform can (Node): it never keeps a process alive on its own.

export interface IdleSweeper {
  start(): void;
  stop(): void;
}

export function idleSweeper(limitMs: number, sweep: () => void): IdleSweeper {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    start() {
      if (timer !== null) return;
      timer = setInterval(sweep, Math.max(1, Math.floor(limitMs / 4)));
      (timer as { unref?: () => void }).unref?.();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
