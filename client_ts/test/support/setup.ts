/** What a describe block starts once for all its tests (services, agents) and stops after them. */
import { after, before } from "node:test";

/** Stops what was started, in reverse order. */
export type Cleanups = Array<() => unknown>;

/**
 * Runs `start` in before() and returns what each test awaits: if the start fails, every test FAILS with its reason
 * (a throwing before hook would only mark them cancelled). after() runs the cleanups `start` registered, in reverse
 * order, even when it failed half-way. Call it inside describe().
 */
export function startOnce<T>(start: (cleanups: Cleanups) => Promise<T>): () => Promise<T> {
  const cleanups: Cleanups = [];
  let setup: Promise<T> | undefined;
  before(() => {
    setup = start(cleanups);
    setup.catch(() => undefined);
  });
  after(async () => {
    await setup?.catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return () => {
    if (!setup) throw new Error("startOnce: the before() hook has not run");
    return setup;
  };
}
