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
export declare class Join<Member, Context, Result> {
    #private;
    constructor(options: JoinOptions<Member, Context, Result>);
    /** Number of keys waiting or in flight (for tests and diagnostics). */
    get size(): number;
    /**
     * Adds `member` to the request for `key` and resolves with that request's result.
     * A member arriving while its key's request is in flight shares that result without being part of it:
     * check `members` to tell.
     */
    arrive(key: string, member: Member, context: Context): Promise<Joined<Member, Result>>;
}
