/**
 * Shares one run of `compute` among concurrent callers, while every caller still gets a result
 * computed after it asked: a call made while a run is under way waits for the next run, which all
 * such callers share. So however many ask at once, at most one run is under way and one waits.
 */
export function coalesce<T>(compute: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = () => {
    const run = compute().finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
