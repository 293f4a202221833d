/** An in-process FactMemory gRPC server (connect-node over HTTP/2) that records what it receives. */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";

import {
  type CompleteEvaluationRequest,
  type CompleteEvaluationResponse,
  CompleteEvaluationResponseSchema,
  type ForgetMessagesRequest,
  type ForgetMessagesResponse,
  ForgetMessagesResponseSchema,
  type PrepareEvaluationRequest,
  type PrepareEvaluationResponse,
  PrepareEvaluationResponseSchema,
  type RegisterAgentRequest,
  RegisterAgentResponseSchema,
  type EvaluateBatchRequest,
  type EvaluateBatchResponse,
  EvaluateBatchResponseSchema,
  type EvaluateRequest,
  type EvaluateResponse,
  EvaluateResponseSchema,
  FactMemoryService,
  type GetLimitsResponse,
  type ProvideRequest,
  type ProvideResponse,
  ProvideResponseSchema,
} from "../../src/gen/factmemory/v1/factmemory_pb.js";
import type { FactMemoryClient } from "../../src/index.js";

/** Handlers get the caller's authorization header so that a proxy can pass it on. */
export interface FakeServiceOptions {
  evaluate?: (
    request: EvaluateRequest,
    authorization: string | null,
  ) => EvaluateResponse | Promise<EvaluateResponse>;
  provide?: (
    request: ProvideRequest,
    authorization: string | null,
  ) => ProvideResponse | Promise<ProvideResponse>;
  evaluateBatch?: (
    request: EvaluateBatchRequest,
    authorization: string | null,
  ) => EvaluateBatchResponse | Promise<EvaluateBatchResponse>;
  prepareEvaluation?: (
    request: PrepareEvaluationRequest,
    authorization: string | null,
  ) => PrepareEvaluationResponse | Promise<PrepareEvaluationResponse>;
  completeEvaluation?: (
    request: CompleteEvaluationRequest,
    authorization: string | null,
  ) => CompleteEvaluationResponse | Promise<CompleteEvaluationResponse>;
  forgetMessages?: (
    request: ForgetMessagesRequest,
    authorization: string | null,
  ) => ForgetMessagesResponse | Promise<ForgetMessagesResponse>;
  /** Throw to fail the call; by default it succeeds. */
  registerAgent?: (request: RegisterAgentRequest, authorization: string | null) => void | Promise<void>;
  /** Without it GetLimits is UNIMPLEMENTED, as on a service older than GetLimits. */
  getLimits?: (authorization: string | null) => GetLimitsResponse | Promise<GetLimitsResponse>;
}

export interface FakeService {
  url: string;
  evaluateRequests: EvaluateRequest[];
  evaluateBatchRequests: EvaluateBatchRequest[];
  provideRequests: ProvideRequest[];
  prepareRequests: PrepareEvaluationRequest[];
  completeRequests: CompleteEvaluationRequest[];
  forgetRequests: ForgetMessagesRequest[];
  registerRequests: RegisterAgentRequest[];
  /** GetLimits calls answered (with a getLimits handler) or refused as UNIMPLEMENTED (without one). */
  limitsAsked: number;
  authorization: (string | null)[];
  close(): Promise<void>;
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const evaluateRequests: EvaluateRequest[] = [];
  const evaluateBatchRequests: EvaluateBatchRequest[] = [];
  const provideRequests: ProvideRequest[] = [];
  const prepareRequests: PrepareEvaluationRequest[] = [];
  const completeRequests: CompleteEvaluationRequest[] = [];
  const forgetRequests: ForgetMessagesRequest[] = [];
  const registerRequests: RegisterAgentRequest[] = [];
  const authorization: (string | null)[] = [];
  const record = (context: HandlerContext) => {
    const value = context.requestHeader.get("authorization");
    authorization.push(value);
    return value;
  };
  const routes = (router: ConnectRouter) =>
    router.service(FactMemoryService, {
      async evaluate(request, context) {
        const auth = record(context);
        evaluateRequests.push(request);
        return options.evaluate ? options.evaluate(request, auth) : create(EvaluateResponseSchema, {});
      },
      async evaluateBatch(request, context) {
        const auth = record(context);
        evaluateBatchRequests.push(request);
        return options.evaluateBatch
          ? options.evaluateBatch(request, auth)
          : create(EvaluateBatchResponseSchema, {});
      },
      async provide(request, context) {
        const auth = record(context);
        provideRequests.push(request);
        return options.provide ? options.provide(request, auth) : create(ProvideResponseSchema, {});
      },
      async prepareEvaluation(request, context) {
        const auth = record(context);
        prepareRequests.push(request);
        return options.prepareEvaluation
          ? options.prepareEvaluation(request, auth)
          : create(PrepareEvaluationResponseSchema, {});
      },
      async completeEvaluation(request, context) {
        const auth = record(context);
        completeRequests.push(request);
        return options.completeEvaluation
          ? options.completeEvaluation(request, auth)
          : create(CompleteEvaluationResponseSchema, {});
      },
      async forgetMessages(request, context) {
        const auth = record(context);
        forgetRequests.push(request);
        return options.forgetMessages
          ? options.forgetMessages(request, auth)
          : create(ForgetMessagesResponseSchema, {});
      },
      async registerAgent(request, context) {
        const auth = record(context);
        registerRequests.push(request);
        await options.registerAgent?.(request, auth);
        return create(RegisterAgentResponseSchema, {});
      },
      async getLimits(_request, context) {
        const auth = record(context);
        fake.limitsAsked += 1;
        if (!options.getLimits) throw new ConnectError("GetLimits is not implemented", Code.Unimplemented);
        return options.getLimits(auth);
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
  const fake: FakeService = {
    url: `http://127.0.0.1:${port}`,
    limitsAsked: 0,
    evaluateRequests,
    evaluateBatchRequests,
    provideRequests,
    prepareRequests,
    completeRequests,
    forgetRequests,
    registerRequests,
    authorization,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // An http2 server waits for open sessions to end, and idle clients keep theirs: end them here.
        for (const session of sessions) session.destroy();
      }),
  };
  return fake;
}

/**
 * A recording proxy in front of a real service: counts the Evaluate and Provide calls the plugin makes
 * and forwards them, with the caller's authorization header, to `upstream`.
 */
export function startRecordingProxy(upstream: FactMemoryClient): Promise<FakeService> {
  const headers = (authorization: string | null) => (authorization ? { authorization } : {});
  return startFakeService({
    evaluate: (request, authorization) => upstream.evaluate(request, { headers: headers(authorization) }),
    provide: (request, authorization) => upstream.provide(request, { headers: headers(authorization) }),
    evaluateBatch: (request, authorization) =>
      upstream.evaluateBatch(request, { headers: headers(authorization) }),
    prepareEvaluation: (request, authorization) =>
      upstream.prepareEvaluation(request, { headers: headers(authorization) }),
    completeEvaluation: (request, authorization) =>
      upstream.completeEvaluation(request, { headers: headers(authorization) }),
    forgetMessages: (request, authorization) =>
      upstream.forgetMessages(request, { headers: headers(authorization) }),
    registerAgent: async (request, authorization) => {
      await upstream.registerAgent(request, { headers: headers(authorization) });
    },
    getLimits: (authorization) => upstream.getLimits({}, { headers: headers(authorization) }),
  });
}
