/** Starts the Python service and the scripted LLM as child processes and stops them again. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export interface Started {
  /** The first capture group of the ready line. */
  ready: string;
  child: ChildProcess;
  /** Everything the process wrote so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** The repository root: the nearest ancestor of this file that holds buf.yaml and proto/. */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(path.join(dir, "buf.yaml")) && existsSync(path.join(dir, "proto")))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("repository root (buf.yaml + proto/) not found above the tests");
    dir = parent;
  }
  return dir;
}

/** Spawns `command` and resolves once a stdout line matches `ready`; rejects with its output if it dies first. */
export function startProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number },
): Promise<Started> {
  if (!existsSync(command)) {
    return Promise.reject(
      new Error(`${command} does not exist: run ./dev test (or set up .venv) at the repo root`),
    );
  }
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGTERM first: the service stops its embedded PostgreSQL on a graceful shutdown.
    child.kill("SIGTERM");
    const killed = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(killed);
  };
  return new Promise<Started>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stop().then(() =>
        reject(new Error(`${path.basename(command)} ${args.join(" ")}: ${reason}\n${output}`)),
      );
    };
    const timer = setTimeout(() => fail(`not ready after ${options.timeoutMs} ms`), options.timeoutMs);
    let pending = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = options.ready.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ ready: match[1] ?? line, child, output: () => output, stop });
        }
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      // Keep the tail only: the service logs every request at INFO.
      output = (output + chunk).slice(-20_000);
    });
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });
}

/** The parent's environment without FactMemory/OpenAI settings, so a developer's shell cannot leak in. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(FACTMEMORY_|OPENAI_)/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}
