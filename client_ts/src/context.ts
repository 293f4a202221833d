/** One client, its settings and its outage log per agent runtime, created on first use. */
import { Code, ConnectError } from "@connectrpc/connect";
import type { IAgentRuntime } from "@elizaos/core";

import { createFactMemoryClient, type FactMemoryClient } from "./client.js";
import { type FactMemorySettings, type ModelMode, readSettings } from "./settings.js";

export const LOG_SOURCE = "plugin:factmemory";

export interface PluginContext {
  settings: FactMemorySettings;
  client: FactMemoryClient;
  outage: OutageLog;
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
    context = {
      settings,
      client: createFactMemoryClient({
        url: settings.url,
        ...(settings.token !== undefined ? { token: settings.token } : {}),
        timeoutMs: settings.timeoutMs,
      }),
      outage: new OutageLog(runtime.logger, settings.url),
      mode: settings.model,
    };
    contexts.set(runtime, context);
  }
  return context;
}

/** Drops the runtime's connection; the next call opens a new one with freshly read settings. */
export function closeContext(runtime: IAgentRuntime): void {
  contexts.get(runtime)?.client.close();
  contexts.delete(runtime);
}

/** Codes that mean "the service is not there or not answering", as opposed to a bug on either side. */
const OUTAGE_CODES = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted]);

/**
 * Logs an outage once instead of on every turn: the first failed call warns, later ones of the same
 * outage go to debug, and the first success afterwards says the service is back.
 * Errors that are not outages (INVALID_ARGUMENT, INTERNAL, ...) point at a bug and always warn.
 */
export class OutageLog {
  #down = false;
  readonly #logger: Logger;
  readonly #url: string;

  constructor(logger: Logger, url: string) {
    this.#logger = logger;
    this.#url = url;
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
