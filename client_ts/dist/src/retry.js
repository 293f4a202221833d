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
export function isTransient(error) {
    return TRANSIENT.has(ConnectError.from(error).code);
}
export const sleep = (ms) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref(); // a pending retry never keeps the process alive
});
/** Calls `call`; after a transient failure waits delaysMs[i] and tries again (1 + delaysMs.length tries in all). */
export async function withRetries(call, delaysMs, wait = sleep) {
    for (let attempt = 0;; attempt += 1) {
        try {
            return await call();
        }
        catch (error) {
            const delay = delaysMs[attempt];
            if (delay === undefined || !isTransient(error))
                throw error;
            await wait(delay);
        }
    }
}
//# sourceMappingURL=retry.js.map