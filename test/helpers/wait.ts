/** Polls `check` until it returns a truthy value (which is returned), or fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits a while to show that something does NOT happen (a second delivery, say). */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
