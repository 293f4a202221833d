/** Bounded retries of calls that an outage can fail; the calls they wrap are idempotent on the service. */
import { Code, ConnectError } from "@connectrpc/connect";

/** Codes worth another try: the service is not there or not answering (anything else is a bug on either side). */
const TRANSIENT = new Set([
  Code.Unavailable,
  Code.DeadlineExceeded,
  Code.Canceled,
  Code.Aborted,
  Code.Unknown,
]);

export function isTransient(error: unknown): boolean {
  return TRANSIENT.has(ConnectError.from(error).code);
}

/**
 * Codes after which the same request gets the same answer: the service's model answered in the wrong shape
 * (FAILED_PRECONDITION: a retry sends the same prompt and pays for the same bad reply), or the request is wrong.
 */
const FINAL = new Set([Code.FailedPrecondition, Code.InvalidArgument]);

export function isFinal(error: unknown): boolean {
  return FINAL.has(ConnectError.from(error).code);
}

export type Sleep = (ms: number) => Promise<void>;

export const sleep: Sleep = (ms) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref(); // a pending retry never keeps the process alive
  });

/** Calls `call`; after a transient failure waits delaysMs[i] and tries again (1 + delaysMs.length tries in all). */
export async function withRetries<T>(
  call: () => Promise<T>,
  delaysMs: readonly number[],
  wait: Sleep = sleep,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (delay === undefined || !isTransient(error)) throw error;
      await wait(delay);
    }
  }
}
