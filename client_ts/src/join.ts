/**
 * Joins the handlers of one message into one request.
 *
 * elizaOS starts every evaluator handler of a turn in the same synchronous loop (runtime.evaluate maps over
 * them and awaits Promise.all), so by the next macrotask every handler of that call has arrived. The join
 * therefore looks at what arrived one tick after an arrival: if every expected member is there it sends;
 * otherwise it waits at most `graceMs` for the rest (handlers wrapped by something asynchronous) and then
 * sends what it has.
 */

export interface JoinOptions<Member, Context, Result> {
  /** Upper bound on waiting for expected members that have not arrived. */
  graceMs: number;
  /** The members worth waiting for, given the first arrival's context and who has arrived so far. */
  expected(context: Context, arrived: ReadonlySet<Member>): Iterable<Member>;
  /** Sends one request for all the members that arrived. */
  send(context: Context, members: readonly Member[]): Promise<Result>;
}

/** What a member gets back: the shared result and which members it covered. */
export interface Joined<Member, Result> {
  value: Result;
  members: ReadonlySet<Member>;
}

interface Pending<Member, Context, Result> {
  context: Context;
  members: Set<Member>;
  result: Promise<Joined<Member, Result>>;
  resolve(joined: Joined<Member, Result>): void;
  reject(error: unknown): void;
  tick: NodeJS.Immediate | undefined;
  grace: NodeJS.Timeout | undefined;
  sent: boolean;
}

export class Join<Member, Context, Result> {
  readonly #options: JoinOptions<Member, Context, Result>;
  readonly #pending = new Map<string, Pending<Member, Context, Result>>();

  constructor(options: JoinOptions<Member, Context, Result>) {
    this.#options = options;
  }

  /** Number of keys waiting or in flight (for tests and diagnostics). */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Adds `member` to the request for `key` and resolves with that request's result.
   * A member arriving while its key's request is in flight shares that result without being part of it:
   * check `members` to tell.
   */
  arrive(key: string, member: Member, context: Context): Promise<Joined<Member, Result>> {
    const pending = this.#pending.get(key) ?? this.#open(key, context);
    if (!pending.sent) {
      pending.members.add(member);
      pending.tick ??= setImmediate(() => this.#settle(key, pending));
    }
    return pending.result;
  }

  #open(key: string, context: Context): Pending<Member, Context, Result> {
    let resolve!: (joined: Joined<Member, Result>) => void;
    let reject!: (error: unknown) => void;
    const result = new Promise<Joined<Member, Result>>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const pending: Pending<Member, Context, Result> = {
      context,
      members: new Set(),
      result,
      resolve,
      reject,
      tick: undefined,
      grace: undefined,
      sent: false,
    };
    this.#pending.set(key, pending);
    return pending;
  }

  #settle(key: string, pending: Pending<Member, Context, Result>): void {
    pending.tick = undefined;
    if (pending.sent) return;
    if (this.#complete(pending)) {
      this.#send(key, pending);
    } else {
      pending.grace ??= setTimeout(() => this.#send(key, pending), this.#options.graceMs);
    }
  }

  #complete(pending: Pending<Member, Context, Result>): boolean {
    for (const member of this.#options.expected(pending.context, pending.members)) {
      if (!pending.members.has(member)) return false;
    }
    return true;
  }

  #send(key: string, pending: Pending<Member, Context, Result>): void {
    if (pending.sent) return;
    pending.sent = true;
    clearTimeout(pending.grace);
    const members: ReadonlySet<Member> = new Set(pending.members);
    // Calling send inside the promise chain turns a synchronous throw into a rejection for every member.
    Promise.resolve()
      .then(() => this.#options.send(pending.context, [...members]))
      .then(
        (value) => pending.resolve({ value, members }),
        (error: unknown) => pending.reject(error),
      )
      .finally(() => this.#pending.delete(key));
  }
}
