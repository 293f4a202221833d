/** An in-process FactMemory gRPC server (connect-node over HTTP/2) that records what it receives. */
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";

import {
  type EvaluateRequest,
  type EvaluateResponse,
  EvaluateResponseSchema,
  FactMemoryService,
  type ProvideRequest,
  type ProvideResponse,
  ProvideResponseSchema,
} from "../../src/gen/factmemory/v1/factmemory_pb.js";

export interface FakeServiceOptions {
  evaluate?: (request: EvaluateRequest) => EvaluateResponse | Promise<EvaluateResponse>;
  provide?: (request: ProvideRequest) => ProvideResponse | Promise<ProvideResponse>;
}

export interface FakeService {
  url: string;
  evaluateRequests: EvaluateRequest[];
  provideRequests: ProvideRequest[];
  authorization: (string | null)[];
  close(): Promise<void>;
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const evaluateRequests: EvaluateRequest[] = [];
  const provideRequests: ProvideRequest[] = [];
  const authorization: (string | null)[] = [];
  const record = (context: HandlerContext) => authorization.push(context.requestHeader.get("authorization"));
  const routes = (router: ConnectRouter) =>
    router.service(FactMemoryService, {
      async evaluate(request, context) {
        record(context);
        evaluateRequests.push(request);
        return options.evaluate ? options.evaluate(request) : create(EvaluateResponseSchema, {});
      },
      async provide(request, context) {
        record(context);
        provideRequests.push(request);
        return options.provide ? options.provide(request) : create(ProvideResponseSchema, {});
      },
    });
  const server = http2.createServer(connectNodeAdapter({ routes }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    evaluateRequests,
    provideRequests,
    authorization,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // An http2 server waits for open sessions to end, and idle clients keep theirs: end them here.
        for (const session of sessions) session.destroy();
      }),
  };
}
