/**
 * The REAL Python service (.venv/bin/factmemory serve) in a temporary folder and, as its model, the scripted
 * OpenAI-compatible server (tests/support/llm_stub.py), both on free ports. Tests that use it FAIL, not skip, when
 * either cannot start: run ./dev test (or set up .venv) at the repo root first.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

import { cleanEnv, repoRoot, type Started, startProcess } from "./processes.js";

export interface RealServiceOptions {
  /** The scripted model's script (tests/support/llm_stub.py); without one the service has no model of its own. */
  script?: unknown;
  /** More arguments for the scripted model (for example `--embedding-dims 1536`). */
  llmArgs?: readonly string[];
  /** The service's bearer token (FACTMEMORY_AUTH_TOKEN). */
  token?: string;
  /** More FACTMEMORY_* settings. */
  env?: Record<string, string>;
}

export interface RealService {
  /** `http://host:port` of the service. */
  url: string;
  service: Started;
  /** The scripted model's OpenAI base URL (ends in /v1); empty when the service has no model. */
  llmUrl: string;
  /** Every request the scripted model received so far, oldest first. */
  llmRequests(): Promise<Array<Record<string, unknown>>>;
  /** Stops the service, then the model, and removes the folder. */
  stop(): Promise<void>;
}

export async function startRealService(options: RealServiceOptions = {}): Promise<RealService> {
  const root = repoRoot();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const tmp = await mkdtemp(path.join(os.tmpdir(), "factmemory-ts-"));
    stops.push(() => rm(tmp, { recursive: true, force: true }));
    let llmUrl = "";
    if (options.script !== undefined) {
      const scriptFile = path.join(tmp, "llm-script.json");
      await writeFile(scriptFile, JSON.stringify(options.script));
      const llm = await startProcess(
        path.join(root, ".venv", "bin", "python"),
        ["tests/support/llm_stub.py", "--port", "0", "--script", scriptFile, ...(options.llmArgs ?? [])],
        { cwd: root, env: cleanEnv({}), ready: /llm stub listening on (http:\/\/\S+)/, timeoutMs: 30_000 },
      );
      stops.push(() => llm.stop());
      llmUrl = llm.ready;
    }
    const service = await startProcess(path.join(root, ".venv", "bin", "factmemory"), ["serve"], {
      cwd: tmp,
      env: cleanEnv({
        FACTMEMORY_LISTEN: "127.0.0.1:0",
        FACTMEMORY_DATA_DIR: path.join(tmp, "data"),
        ...(options.token !== undefined ? { FACTMEMORY_AUTH_TOKEN: options.token } : {}),
        ...(llmUrl ? { OPENAI_BASE_URL: llmUrl, OPENAI_API_KEY: "test" } : {}),
        ...options.env,
      }),
      // The first start of a data dir runs initdb: allow for a slow machine.
      ready: /factmemory listening on (\S+:\d+)/,
      timeoutMs: 180_000,
    });
    stops.push(() => service.stop());
    return {
      url: `http://${service.ready}`,
      service,
      llmUrl,
      llmRequests: async () => {
        assert.ok(llmUrl, "this service has no scripted model");
        const response = await fetch(llmUrl.replace(/\/v1$/, "/_requests"));
        assert.equal(response.status, 200);
        return (await response.json()) as Array<Record<string, unknown>>;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
