/** One client, its settings and its outage log per agent runtime, created on first use. */
import { Code, ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime } from "@elizaos/core";

import { createFactMemoryClient, type FactMemoryClient } from "./client.js";
import { LearnedLimits } from "./limits.js";
import { type FactMemorySettings, type ModelMode, readSettings } from "./settings.js";

export const LOG_SOURCE = "plugin:factmemory";

export interface PluginContext {
  settings: FactMemorySettings;
  client: FactMemoryClient;
  outage: OutageLog;
  /** The service's request limits, asked for at first use (GetLimits). */
  limits: LearnedLimits;
  /** Whose model extracts now: starts as the setting; auto becomes agent once the service says it has none. */
  mode: ModelMode;
}

type Logger = IAgentRuntime["logger"];

// Keyed by runtime because one plugin object may serve several agents in one process.
const contexts = new WeakMap<IAgentRuntime, PluginContext>();

export function contextFor(runtime: IAgentRuntime): PluginContext {
  let context = contexts.get(runtime);
  if (!context) {
    const settings = readSettings(runtime);
    const client = createFactMemoryClient({
      url: settings.url,
      ...(settings.token !== undefined ? { token: settings.token } : {}),
      timeoutMs: settings.timeoutMs,
    });
    context = {
      settings,
      client,
      outage: new OutageLog(runtime.logger, settings.url, settings.token !== undefined),
      limits: learnedLimits(runtime.logger, client, settings.url),
      mode: settings.model,
    };
    contexts.set(runtime, context);
  }
  return context;
}

function learnedLimits(logger: Logger, client: FactMemoryClient, url: string): LearnedLimits {
  return new LearnedLimits({
    ask: () => client.getLimits({}),
    onOlderService: () =>
      logger.info(
        { src: LOG_SOURCE, url },
        "FactMemory: the service is older than GetLimits; requests are cut to its default limits",
      ),
    onFailure: (error) =>
      logger.debug(
        { src: LOG_SOURCE, url, error: describeError(error) },
        "FactMemory: asking the service for its limits failed; its default limits serve until the next ask",
      ),
  });
}

/** Drops the runtime's connection; the next call opens a new one with freshly read settings. */
export function closeContext(runtime: IAgentRuntime): void {
  contexts.get(runtime)?.client.close();
  contexts.delete(runtime);
}

/** Codes that mean "the service is not there or not answering", as opposed to a bug on either side. */
const OUTAGE_CODES = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted]);

/**
 * Why the service refuses this agent itself (its token), and what to set; undefined for any other error.
 * The service says UNAUTHENTICATED for a missing or wrong token, RESOURCE_EXHAUSTED while this address is
 * throttled after too many wrong ones.
 */
export function refusalAdvice(error: unknown, tokenSet: boolean): string | undefined {
  const err = ConnectError.from(error);
  const set = "set FACT_MEMORY_TOKEN to the service's FACTMEMORY_AUTH_TOKEN";
  if (err.code === Code.Unauthenticated) {
    return tokenSet
      ? `the service refuses FACT_MEMORY_TOKEN (not its token): ${set}`
      : `the service requires a token and FACT_MEMORY_TOKEN is not set: ${set}`;
  }
  if (err.code === Code.ResourceExhausted && /too many failed attempts/.test(err.rawMessage)) {
    // The service says how long (`retry in N s`); an older one did not: then its window is the bound.
    const wait = /retry in (\d+) s/.exec(err.rawMessage);
    const howLong = wait ? `for ${wait[1]} s` : "for up to FACTMEMORY_AUTH_FAILURE_WINDOW_S";
    return `the service refuses every call from this address ${howLong} after too many wrong tokens, the right token too (${set})`;
  }
  return undefined;
}

/**
 * Logs an outage once instead of on every turn: the first failed call warns, later ones of the same
 * outage go to debug, and the first success afterwards says the service is back. A refusal of the agent
 * itself (no or a wrong token) is said once, with what to set, until a call succeeds.
 * Errors that are not outages (INVALID_ARGUMENT, INTERNAL, ...) point at a bug and always warn.
 */
export class OutageLog {
  #down = false;
  #refused = false;
  readonly #logger: Logger;
  readonly #url: string;
  readonly #tokenSet: boolean;

  constructor(logger: Logger, url: string, tokenSet = false) {
    this.#logger = logger;
    this.#url = url;
    this.#tokenSet = tokenSet;
  }

  get down(): boolean {
    return this.#down;
  }

  failed(operation: string, error: unknown): void {
    const err = ConnectError.from(error);
    const details = {
      src: LOG_SOURCE,
      operation,
      url: this.#url,
      code: Code[err.code],
      error: err.rawMessage,
    };
    const advice = refusalAdvice(err, this.#tokenSet);
    if (advice !== undefined) {
      if (this.#refused) {
        this.#logger.debug(details, "FactMemory still refuses this agent");
        return;
      }
      this.#refused = true;
      this.#logger.warn(
        details,
        `FactMemory refuses this agent: ${advice}; turns go on without long-term facts`,
      );
      return;
    }
    if (!OUTAGE_CODES.has(err.code)) {
      this.#logger.warn(details, `FactMemory ${operation} failed`);
      return;
    }
    if (this.#down) {
      this.#logger.debug(details, "FactMemory service still unreachable");
      return;
    }
    this.#down = true;
    this.#logger.warn(details, "FactMemory service unreachable; turns go on without long-term facts");
  }

  succeeded(): void {
    this.#refused = false;
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info({ src: LOG_SOURCE, url: this.#url }, "FactMemory service reachable again");
  }
}

/** A short, human-readable form of any error, for ActionResult.error and logs. */
export function describeError(error: unknown): string {
  if (error instanceof ConnectError) return `${Code[error.code]}: ${error.rawMessage}`;
  return error instanceof Error ? error.message : String(error);
}
