import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { FactMemoryService } from "./gen/factmemory/v1/factmemory_pb.js";
/** The request header that names the reviewer in the history of the facts a call changes. */
export const REVIEWER_HEADER = "x-factmemory-reviewer";
/** Connects to the FactMemory service over gRPC (HTTP/2); usable without elizaOS. */
export function createFactMemoryClient(options) {
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
export function normalizeUrl(url) {
    const trimmed = url.trim().replace(/\/+$/, "");
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}
function bearer(token) {
    return header("authorization", `Bearer ${token}`);
}
function header(name, value) {
    return (next) => (request) => {
        request.header.set(name, value);
        return next(request);
    };
}
//# sourceMappingURL=client.js.map