import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";

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
export const REVIEWER_HEADER = "x-factmemory-reviewer";

/** The generated promise client of factmemory.v1.FactMemoryService, plus a way to drop its connection. */
export type FactMemoryClient = Client<typeof FactMemoryService> & {
  /** Closes the HTTP/2 connection; calls in flight fail with CANCELED. */
  close(): void;
};

/** Connects to the FactMemory service over gRPC (HTTP/2); usable without elizaOS. */
export function createFactMemoryClient(options: FactMemoryClientOptions): FactMemoryClient {
  const baseUrl = normalizeUrl(options.url);
  // One session manager per client so that close() can end exactly this client's connection.
  const sessionManager = new Http2SessionManager(baseUrl);
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager,
    interceptors: [
      ...(options.token ? [bearer(options.token)] : []),
      ...(options.reviewer ? [header(REVIEWER_HEADER, options.reviewer)] : []),
    ],
    ...(options.timeoutMs !== undefined ? { defaultTimeoutMs: options.timeoutMs } : {}),
  });
  const client = createClient(FactMemoryService, transport);
  return Object.assign(client, { close: () => sessionManager.abort() });
}

/** Adds the scheme gRPC users often leave out ("127.0.0.1:50051"). */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, "");
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

function bearer(token: string): Interceptor {
  return header("authorization", `Bearer ${token}`);
}

function header(name: string, value: string): Interceptor {
  return (next) => (request) => {
    request.header.set(name, value);
    return next(request);
  };
}
