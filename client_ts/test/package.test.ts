/**
 * The package as a user receives it. `npm pack` (no build: the committed dist is packed) makes a tarball;
 * a scratch project in a temporary directory installs it next to @elizaos/core, type-checks a small program
 * under `moduleResolution: Bundler` and `NodeNext`, runs the compiled output with Node, and registers the
 * plugin in a real AgentRuntime loaded from the scratch project's own node_modules. Other scratch projects
 * install the package from a path, copied and linked.
 *
 * All of it starts from what a fresh clone holds (the committed build: the bundle dist/factmemory.js and the
 * declarations in dist/src; no node_modules): nothing is built on install, so no compiler is needed. One scratch
 * project installs from a real `git clone` of the repository by the README's plain line, `npm i <clone>/client_ts`:
 * npm only symlinks the folder and installs none of its dependencies, so the bundle must carry them.
 *
 * Installs prefer the npm cache that `npm ci` filled (`--prefer-offline`); the registry is asked only for
 * what the cache lacks.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, lstat, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TSC = path.join(PACKAGE_ROOT, "node_modules", "typescript", "bin", "tsc");
const NAME = "@factmemory/plugin-elizaos";
const INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund"];

/** The client part only: fully typed under both resolutions. */
const CLIENT_TS = `
import factMemoryPlugin, { createFactMemoryClient, type FactMemoryClient, Kind } from "${NAME}";

const client: FactMemoryClient = createFactMemoryClient({ url: "127.0.0.1:1", timeoutMs: 2000 });
export function misuse(): void {
  // @ts-expect-error the options are typed (a number is no URL): the package's declarations resolved
  createFactMemoryClient({ url: 42 });
}
let code: unknown = "none";
try {
  await client.listFacts({ agentId: "a", entityId: "e", kind: Kind.DURABLE });
} catch (error) {
  code = (error as { code?: unknown }).code;
}
client.close();
console.log("CLIENT " + JSON.stringify({ plugin: factMemoryPlugin.name, code }));
`;

/** The plugin in elizaOS: needs @elizaos/core's types, which only resolve under Bundler. */
const RUNTIME_TS = `
import { AgentRuntime, type Plugin } from "@elizaos/core";
import factMemoryPlugin from "${NAME}";

const plugin: Plugin = factMemoryPlugin;
const runtime = new AgentRuntime({ character: { name: "Ava", bio: ["A helpful assistant."] } });
await runtime.registerPlugin(plugin);
console.log(
  "REGISTERED " +
    JSON.stringify({
      plugins: runtime.plugins.map((p) => p.name),
      evaluators: runtime.evaluators.map((e) => e.name),
      providers: runtime.providers.map((p) => p.name),
    }),
);
`;

/** Under NodeNext: only an import from @elizaos/core (no Node types needed, so lib checks stay quick). */
const CORE_TS = `
import { AgentRuntime } from "@elizaos/core";
export const Runtime: typeof AgentRuntime = AgentRuntime;
`;

interface Ran {
  code: number;
  stdout: string;
  /** stdout then stderr. */
  output: string;
}

/** npm's run-script environment minus what would point a child npm back at this package. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_(package_|lifecycle_|command$|config_local_prefix$)/.test(key)) env[key] = value;
  }
  return env;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: childEnv(), maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (error === null) resolve({ code: 0, stdout, output });
        else if (typeof error.code === "number") resolve({ code: error.code, stdout, output });
        else reject(error);
      },
    );
  });
}

async function ok(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  const ran = await run(command, args, cwd);
  assert.equal(ran.code, 0, `${command} ${args.join(" ")} (in ${cwd}) failed:\n${ran.output}`);
  return ran;
}

/** The JSON after `marker` on the line that starts with it (the runtime's own log lines come first). */
function reported(output: string, marker: string): unknown {
  const line = output.split("\n").find((l) => l.startsWith(`${marker} `));
  assert.ok(line, `no "${marker}" line in:\n${output}`);
  return JSON.parse(line.slice(marker.length + 1));
}

function tsconfig(
  resolution: "Bundler" | "NodeNext",
  files: string[],
  extra: Record<string, unknown>,
): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: resolution === "Bundler" ? "ESNext" : "NodeNext",
      moduleResolution: resolution,
      strict: true,
      types: ["node"],
      ...extra,
    },
    files,
  });
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = { name: `scratch-${path.basename(dir)}`, private: true, type: "module" };
  await writeFile(path.join(dir, "package.json"), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

/** A copy of the package as a fresh clone has it (the committed dist, no node_modules); returns its path. */
async function copySources(name: string): Promise<string> {
  const to = path.join(scratch, name);
  for (const entry of ["package.json", "README.md", "tsconfig.json", "tsconfig.build.json", "src", "dist"]) {
    await cp(path.join(PACKAGE_ROOT, entry), path.join(to, entry), { recursive: true });
  }
  assert.equal(existsSync(path.join(to, "node_modules")), false);
  return to;
}

const UNAVAILABLE = 14; // Code.Unavailable of @connectrpc/connect: nothing listens on port 1

let scratch = "";

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "factmemory-package-"));
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("the packed package in a scratch project", { timeout: 240_000 }, () => {
  let project = "";
  let packed: string[] = [];
  // The three tsc runs start together once the project is installed; each test awaits its own.
  let typechecks: Record<"bundler" | "nodenext" | "core", Promise<Ran>>;

  before(async () => {
    project = path.join(scratch, "project");
    const manifest = JSON.parse(await readFile(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const source = await copySources("source-packed");
    const packOutput = (await ok("npm", ["pack", "--json", "--pack-destination", scratch], source)).stdout;
    const [tarball] = JSON.parse(packOutput.slice(packOutput.indexOf("["))) as {
      filename: string;
      files: { path: string }[];
    }[];
    assert.ok(tarball, packOutput);
    packed = tarball.files.map((f) => f.path);
    await writeProject(project, {
      "client.ts": CLIENT_TS,
      "runtime.ts": RUNTIME_TS,
      "core.ts": CORE_TS,
      "tsconfig.bundler.json": tsconfig("Bundler", ["client.ts", "runtime.ts"], {
        outDir: "out/bundler",
        skipLibCheck: true,
      }),
      "tsconfig.nodenext.json": tsconfig("NodeNext", ["client.ts"], {
        outDir: "out/nodenext",
        skipLibCheck: true,
      }),
      "tsconfig.nodenext-core.json": tsconfig("NodeNext", ["core.ts"], {
        noEmit: true,
        skipLibCheck: false,
        types: [],
      }),
    });
    await ok(
      "npm",
      [
        ...INSTALL,
        path.join(scratch, tarball.filename),
        `@elizaos/core@${manifest.devDependencies["@elizaos/core"]}`,
        `@types/node@${manifest.devDependencies["@types/node"]}`,
      ],
      project,
    );
    const tsc = (config: string) => run(process.execPath, [TSC, "-p", config], project);
    typechecks = {
      bundler: tsc("tsconfig.bundler.json"),
      nodenext: tsc("tsconfig.nodenext.json"),
      core: tsc("tsconfig.nodenext-core.json"),
    };
    for (const running of Object.values(typechecks)) running.catch(() => undefined);
  });

  async function typechecked(which: keyof typeof typechecks): Promise<void> {
    const ran = await typechecks[which];
    assert.equal(ran.code, 0, `tsc (${which}) failed:\n${ran.output}`);
  }

  test("the tarball carries the bundle, its notices and the declarations", () => {
    for (const file of [
      "dist/factmemory.js",
      "dist/THIRD_PARTY_NOTICES.md",
      "dist/src/index.d.ts",
      "dist/src/client.d.ts",
      "package.json",
    ]) {
      assert.ok(packed.includes(file), `${file} not packed: ${packed.join(", ")}`);
    }
    assert.deepEqual(
      packed.filter(
        (f) => f.startsWith("dist/test") || f.startsWith("src/") || /^dist\/src\/.*\.js$/.test(f),
      ),
      [],
      "only the bundle and the declarations of src are packed",
    );
  });

  test("Bundler resolution: client and plugin type-check, and the plugin registers in an AgentRuntime", async () => {
    await typechecked("bundler");
    const registered = reported((await ok("node", ["out/bundler/runtime.js"], project)).stdout, "REGISTERED");
    assert.deepEqual(registered, {
      plugins: ["factmemory"],
      evaluators: [
        "FACT_MEMORY_FACTS",
        "FACT_MEMORY_RELATIONSHIPS",
        "FACT_MEMORY_IDENTITIES",
        "FACT_MEMORY_SUCCESS",
      ],
      providers: ["FACT_MEMORY"],
    });
    const client = reported((await ok("node", ["out/bundler/client.js"], project)).stdout, "CLIENT");
    assert.deepEqual(client, { plugin: "factmemory", code: UNAVAILABLE });
  });

  test("NodeNext resolution: the package's own types resolve and its output runs under Node", async () => {
    await typechecked("nodenext");
    const client = reported((await ok("node", ["out/nodenext/client.js"], project)).stdout, "CLIENT");
    assert.deepEqual(client, { plugin: "factmemory", code: UNAVAILABLE });
  });

  test("NodeNext resolution: @elizaos/core 1.7.2's own declarations do not resolve (why the README says Bundler)", async () => {
    // core's dist/index.d.ts re-exports './types', './runtime', ... without extensions inside a "type": "module"
    // package; NodeNext demands extensions there (TS2834), so every core export is missing (TS2305). If this
    // starts passing, core fixed its types: update the README's tsconfig section.
    const ran = await typechecks.core;
    assert.notEqual(ran.code, 0, ran.output);
    assert.match(ran.output, /@elizaos\/core\/dist\/index\.d\.ts\(\d+,\d+\): error TS2834/);
    assert.match(
      ran.output,
      /core\.ts\(\d+,\d+\): error TS2305: Module '"@elizaos\/core"' has no exported member 'AgentRuntime'/,
    );
  });
});

describe("installed from a checkout", { timeout: 240_000 }, () => {
  // A plain `npm i <folder>` only symlinks the folder and installs none of its dependencies (npm 11): Node then
  // resolves the plugin's imports from the checkout, where a fresh clone has no node_modules. The bundle
  // (dist/factmemory.js) imports nothing but Node's builtins, so that is enough.
  test("a fresh git clone, by the README's plain line: npm i <clone>/client_ts, and the plugin registers and calls", async () => {
    const clone = path.join(scratch, "clone");
    await ok("git", ["clone", "--quiet", path.resolve(PACKAGE_ROOT, ".."), clone], scratch);
    const checkout = path.join(clone, "client_ts");
    assert.equal(existsSync(path.join(checkout, "node_modules")), false);
    const project = path.join(scratch, "from-clone");
    await writeProject(project, { "runtime.mjs": RUNTIME_MJS });
    const manifest = JSON.parse(await readFile(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const core = `@elizaos/core@${manifest.devDependencies["@elizaos/core"]}`;
    await ok("npm", [...INSTALL, checkout, core], project);
    const installed = path.join(project, "node_modules", ...NAME.split("/"));
    assert.ok((await lstat(installed)).isSymbolicLink(), "npm linked the checkout");
    assert.equal(await realpath(installed), await realpath(checkout));
    // Nothing of the plugin's run-time dependencies anywhere Node would look: the bundle carries them.
    for (const dir of [checkout, project]) {
      for (const dependency of ["@connectrpc/connect", "@connectrpc/connect-node", "@bufbuild/protobuf"]) {
        assert.equal(
          existsSync(path.join(dir, "node_modules", dependency)),
          false,
          `${dependency} in ${dir}`,
        );
      }
    }
    const ran = (await ok("node", ["runtime.mjs"], project)).stdout;
    assert.deepEqual(reported(ran, "REGISTERED"), {
      plugins: ["factmemory"],
      evaluators: [
        "FACT_MEMORY_FACTS",
        "FACT_MEMORY_RELATIONSHIPS",
        "FACT_MEMORY_IDENTITIES",
        "FACT_MEMORY_SUCCESS",
      ],
      providers: ["FACT_MEMORY"],
    });
    assert.deepEqual(reported(ran, "CLIENT"), { code: UNAVAILABLE });
  });
});

/** Plain JavaScript, as a character file's project would load the plugin; then one call of the client. */
const RUNTIME_MJS = `
import { AgentRuntime } from "@elizaos/core";
import factMemoryPlugin, { createFactMemoryClient, Kind } from "${NAME}";
const runtime = new AgentRuntime({ character: { name: "Ava", bio: ["A helpful assistant."] } });
await runtime.registerPlugin(factMemoryPlugin);
console.log("REGISTERED " + JSON.stringify({
  plugins: runtime.plugins.map((p) => p.name),
  evaluators: runtime.evaluators.map((e) => e.name),
  providers: runtime.providers.map((p) => p.name),
}));
const client = createFactMemoryClient({ url: "127.0.0.1:1", timeoutMs: 2000 });
let code = "none";
try {
  await client.listFacts({ agentId: "a", entityId: "e", kind: Kind.DURABLE });
} catch (error) {
  code = error.code;
}
console.log("CLIENT " + JSON.stringify({ code }));
process.exit(0);
`;
