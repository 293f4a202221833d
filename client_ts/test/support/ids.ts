import { randomUUID } from "node:crypto";

import type { UUID } from "@elizaos/core";

export function uuid(): UUID {
  return randomUUID() as UUID;
}
