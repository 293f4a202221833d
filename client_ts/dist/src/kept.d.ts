/**
 * Promises kept by key for a while: the provider's call per message (composeState asks several times in a turn),
 * a room per turn. At most `max` are kept, each for `ttlMs`, the oldest dropped first; one that rejects, or settles
 * to a value `keep` refuses, is dropped once settled, so that the next caller starts again.
 */
export declare class KeptPromises<K, V> {
    #private;
    private readonly ttlMs;
    private readonly max;
    constructor(ttlMs: number, max: number);
    /** The promise kept under `key`, unless it is older than `ttlMs`. */
    get(key: K): Promise<V> | undefined;
    /** Keeps `value` under `key` and returns it. */
    set(key: K, value: Promise<V>, keep?: (result: V) => boolean): Promise<V>;
}
