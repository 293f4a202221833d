/**
 * TLS from Node against the REAL service (.venv/bin/factmemory serve with FACTMEMORY_TLS_CERT_FILE and
 * FACTMEMORY_TLS_KEY_FILE, a throwaway self-signed certificate for 127.0.0.1): an https:// URL, the private CA
 * trusted through NODE_EXTRA_CA_CERTS. Node reads that variable once at start-up, so every client here runs in
 * a Node process of its own. Fails, not skips, when the service cannot start: run ./dev test first.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { cleanEnv, repoRoot, type Started, startProcess } from "./support/processes.js";

const INDEX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/index.js");

// One Provide call through the package's client; the outcome as a RESULT line.
const CALL = `
const { createFactMemoryClient } = await import(process.env.FM_INDEX);
const client = createFactMemoryClient({ url: process.env.FM_URL, timeoutMs: 10000 });
const id = () => crypto.randomUUID();
try {
  const response = await client.provide({ agentId: id(), entityId: id(), roomId: id() });
  console.log("RESULT " + JSON.stringify({ ok: true, text: response.text }));
} catch (error) {
  console.log("RESULT " + JSON.stringify({ ok: false, code: error.code, message: error.message }));
} finally {
  client.close();
}
`;

interface Outcome {
  ok: boolean;
  text?: string;
  code?: number;
  message?: string;
}

function callInNewNode(url: string, extra: Record<string, string>): Promise<Outcome> {
  const env = cleanEnv({ ...extra, FM_INDEX: INDEX, FM_URL: url });
  if (!("NODE_EXTRA_CA_CERTS" in extra)) delete env.NODE_EXTRA_CA_CERTS;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", CALL], { env }, (error, stdout, stderr) => {
      const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
      if (error || !line) reject(new Error(`client process failed: ${error?.message}\n${stdout}${stderr}`));
      else resolve(JSON.parse(line.slice("RESULT ".length)) as Outcome);
    });
  });
}

const INTERNAL = 13;

describe("TLS from Node to the real service", { timeout: 240_000 }, () => {
  const root = repoRoot();
  let tmp = "";
  let service: Started | undefined;
  let setup: Promise<{ address: string; ca: string }>;

  before(() => {
    setup = start();
    setup.catch(() => undefined);
  });

  after(async () => {
    await setup?.catch(() => undefined);
    await service?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function start(): Promise<{ address: string; ca: string }> {
    tmp = await mkdtemp(path.join(os.tmpdir(), "factmemory-tls-"));
    const key = path.join(tmp, "key.pem");
    const ca = path.join(tmp, "cert.pem");
    const python = path.join(root, ".venv", "bin", "python");
    const writeCert =
      "import sys; from pathlib import Path; from tests.support.tls import self_signed_localhost; " +
      "pair = self_signed_localhost(); Path(sys.argv[1]).write_bytes(pair.key); Path(sys.argv[2]).write_bytes(pair.cert)";
    await new Promise<void>((resolve, reject) =>
      execFile(python, ["-c", writeCert, key, ca], { cwd: root }, (error, _out, stderr) =>
        error ? reject(new Error(`certificate: ${error.message}\n${stderr}`)) : resolve(),
      ),
    );
    service = await startProcess(path.join(root, ".venv", "bin", "factmemory"), ["serve"], {
      cwd: tmp,
      env: cleanEnv({
        FACTMEMORY_LISTEN: "127.0.0.1:0",
        FACTMEMORY_DATA_DIR: path.join(tmp, "data"),
        FACTMEMORY_TLS_CERT_FILE: ca,
        FACTMEMORY_TLS_KEY_FILE: key,
      }),
      ready: /factmemory listening on (\S+:\d+)/,
      timeoutMs: 180_000,
    });
    return { address: service.ready, ca };
  }

  test("an https:// URL with the private CA in NODE_EXTRA_CA_CERTS", async () => {
    const { address, ca } = await setup;
    const outcome = await callInNewNode(`https://${address}`, { NODE_EXTRA_CA_CERTS: ca });
    assert.deepEqual(outcome, { ok: true, text: "" });
  });

  test("without NODE_EXTRA_CA_CERTS the certificate is not trusted", async () => {
    const { address } = await setup;
    const outcome = await callInNewNode(`https://${address}`, {});
    // connect-node reports a TLS failure as INTERNAL (not UNAVAILABLE), with Node's reason in the message.
    assert.equal(outcome.ok, false, JSON.stringify(outcome));
    assert.equal(outcome.code, INTERNAL);
    assert.match(outcome.message ?? "", /self-signed certificate/);
  });

  test("plain-text HTTP/2 to the TLS port fails", async () => {
    const { address, ca } = await setup;
    const outcome = await callInNewNode(`http://${address}`, { NODE_EXTRA_CA_CERTS: ca });
    assert.equal(outcome.ok, false);
  });
});
