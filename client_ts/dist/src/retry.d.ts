export declare function isTransient(error: unknown): boolean;
export declare function isFinal(error: unknown): boolean;
export type Sleep = (ms: number) => Promise<void>;
export declare const sleep: Sleep;
/** Calls `call`; after a transient failure waits delaysMs[i] and tries again (1 + delaysMs.length tries in all). */
export declare function withRetries<T>(call: () => Promise<T>, delaysMs: readonly number[], wait?: Sleep): Promise<T>;
