// The plugin as one ESM file, dist/factmemory.js: src/ with its run-time dependencies (@bufbuild/protobuf,
// @connectrpc/connect, @connectrpc/connect-node) inside, so that `npm i <checkout>/client_ts` works as a plain
// symlink (Node finds nothing in a fresh clone's client_ts/node_modules, and needs nothing there).
// External: @elizaos/core (the plugin imports only its types; the agent brings it) and Node's builtins.
// Deterministic (same esbuild, same inputs, same bytes): ../dev test rebuilds it and fails when it differs.
// dist/THIRD_PARTY_NOTICES.md names every bundled package with its version and license.
import { build } from "esbuild";
import { readFile, writeFile } from "node:fs/promises";

const OUT = "dist/factmemory.js";
const NOTICES = "dist/THIRD_PARTY_NOTICES.md";

const result = await build({
  entryPoints: ["src/index.ts"],
  outfile: OUT,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["@elizaos/core"],
  legalComments: "eof",
  charset: "utf8",
  metafile: true,
  logLevel: "warning",
});

/** The bundled files under node_modules, by package ("@scope/name" or "name"), both sorted. */
function bundledFiles(inputs) {
  const byPackage = new Map();
  for (const input of Object.keys(inputs).sort()) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!match) continue;
    byPackage.set(match[1], [...(byPackage.get(match[1]) ?? []), input]);
  }
  return new Map([...byPackage].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A file's leading comment block (its license header), without the comment markers. */
function header(text) {
  const lines = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("//")) break;
    lines.push(line.replace(/^\/\/ ?/, ""));
  }
  return lines.join("\n").trim();
}

const sections = [];
for (const [name, files] of bundledFiles(result.metafile.inputs)) {
  const manifest = JSON.parse(await readFile(`node_modules/${name}/package.json`, "utf8"));
  const headers = new Set();
  for (const file of files) {
    const found = header(await readFile(file, "utf8"));
    if (/copyright/i.test(found)) headers.add(found);
  }
  sections.push(
    `## ${name} ${manifest.version}`,
    "",
    `License: ${manifest.license}`,
    "",
    ...[...headers].flatMap((text) => ["```", text, "```", ""]),
  );
}
await writeFile(
  NOTICES,
  [
    "# Third-party code in dist/factmemory.js",
    "",
    "The bundle carries these packages' code (esbuild, from `npm ci`'s node_modules), under their licenses:",
    "the notices below are their files' headers. Apache-2.0: https://www.apache.org/licenses/LICENSE-2.0.",
    "",
    ...sections,
  ].join("\n"),
);
