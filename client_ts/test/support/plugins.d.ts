// @elizaos/plugin-sql 1.7.2 points its "exports" types at files it does not ship; only its default export is used.
declare module "@elizaos/plugin-sql" {
  import type { Plugin } from "@elizaos/core";

  const sqlPlugin: Plugin;
  export default sqlPlugin;
}

// @elizaos/plugin-bootstrap 1.7.2 ships no type declarations.
declare module "@elizaos/plugin-bootstrap" {
  import type { Plugin } from "@elizaos/core";

  const bootstrapPlugin: Plugin;
  export default bootstrapPlugin;
}
