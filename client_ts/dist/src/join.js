/**
 * Joins the handlers of one message into one request.
 *
 * elizaOS starts every evaluator handler of a turn in the same synchronous loop (runtime.evaluate maps over
 * them and awaits Promise.all), so by the next macrotask every handler of that call has arrived. The join
 * therefore looks at what arrived one tick after an arrival: if every expected member is there it sends;
 * otherwise it waits at most `graceMs` for the rest (handlers wrapped by something asynchronous) and then
 * sends what it has.
 */
export class Join {
    #options;
    #pending = new Map();
    constructor(options) {
        this.#options = options;
    }
    /** Number of keys waiting or in flight (for tests and diagnostics). */
    get size() {
        return this.#pending.size;
    }
    /**
     * Adds `member` to the request for `key` and resolves with that request's result.
     * A member arriving while its key's request is in flight shares that result without being part of it:
     * check `members` to tell.
     */
    arrive(key, member, context) {
        const pending = this.#pending.get(key) ?? this.#open(key, context);
        if (!pending.sent) {
            pending.members.add(member);
            pending.tick ??= setImmediate(() => this.#settle(key, pending));
        }
        return pending.result;
    }
    #open(key, context) {
        let resolve;
        let reject;
        const result = new Promise((res, rej) => {
            resolve = res;
            reject = rej;
        });
        const pending = {
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
    #settle(key, pending) {
        pending.tick = undefined;
        if (pending.sent)
            return;
        if (this.#complete(pending)) {
            this.#send(key, pending);
        }
        else {
            pending.grace ??= setTimeout(() => this.#send(key, pending), this.#options.graceMs);
        }
    }
    #complete(pending) {
        for (const member of this.#options.expected(pending.context, pending.members)) {
            if (!pending.members.has(member))
                return false;
        }
        return true;
    }
    #send(key, pending) {
        if (pending.sent)
            return;
        pending.sent = true;
        clearTimeout(pending.grace);
        const members = new Set(pending.members);
        // Calling send inside the promise chain turns a synchronous throw into a rejection for every member.
        Promise.resolve()
            .then(() => this.#options.send(pending.context, [...members]))
            .then((value) => pending.resolve({ value, members }), (error) => pending.reject(error))
            .finally(() => this.#pending.delete(key));
    }
}
//# sourceMappingURL=join.js.map