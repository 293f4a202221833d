import { type Client } from "@connectrpc/connect";
import { FactMemoryService } from "./gen/factmemory/v1/factmemory_pb.js";
export interface FactMemoryClientOptions {
    /** Where the service listens, e.g. "http://127.0.0.1:50051"; a bare "host:port" means plain-text HTTP/2. */
    url: string;
    /** Sent as `authorization: Bearer <token>` on every call. */
    token?: string;
    /** Deadline of every call that does not pass its own `timeoutMs`. */
    timeoutMs?: number;
    /** Who makes the changes (AddFact, UpdateFact, DeleteFact, ResolveCandidate): named in the facts' history. */
    reviewer?: string;
}
/** The request header that names the reviewer in the history of the facts a call changes. */
export declare const REVIEWER_HEADER = "x-factmemory-reviewer";
/** The generated promise client of factmemory.v1.FactMemoryService, plus a way to drop its connection. */
export type FactMemoryClient = Client<typeof FactMemoryService> & {
    /** Closes the HTTP/2 connection; calls in flight fail with CANCELED. */
    close(): void;
};
/** Connects to the FactMemory service over gRPC (HTTP/2); usable without elizaOS. */
export declare function createFactMemoryClient(options: FactMemoryClientOptions): FactMemoryClient;
/** Adds the scheme gRPC users often leave out ("127.0.0.1:50051"). */
export declare function normalizeUrl(url: string): string;
