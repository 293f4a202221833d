/**
 * Promises kept by key for a while: the provider's call per message (composeState asks several times in a turn),
 * a room per turn. At most `max` are kept, each for `ttlMs`, the oldest dropped first; one that rejects, or settles
 * to a value `keep` refuses, is dropped once settled, so that the next caller starts again.
 */
export class KeptPromises<K, V> {
  readonly #entries = new Map<K, { at: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** The promise kept under `key`, unless it is older than `ttlMs`. */
  get(key: K): Promise<V> | undefined {
    const entry = this.#entries.get(key);
    return entry && Date.now() - entry.at < this.ttlMs ? entry.value : undefined;
  }

  /** Keeps `value` under `key` and returns it. */
  set(key: K, value: Promise<V>, keep: (result: V) => boolean = () => true): Promise<V> {
    const now = Date.now();
    for (const [old, entry] of this.#entries) {
      if (this.#entries.size < this.max && now - entry.at < this.ttlMs) break;
      this.#entries.delete(old);
    }
    const entry = { at: now, value };
    this.#entries.set(key, entry);
    const forget = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    value.then((result) => {
      if (!keep(result)) forget();
    }, forget);
    return value;
  }
}
