/**
 * The proxy table's routing facts ({@link ChainRows}), read once off its rows
 * and its base's (the unstable table), for the conductor (`conductor.ts`) and
 * a proxy (`define.ts`).
 */
import { protocol as unstable } from "../unstable/generated/protocol.ts";
import { chainRows, type ChainRows } from "./chain-rows.ts";
import { protocol } from "./generated/protocol.ts";

/** What the conductor and a proxy route by. */
export const proxyRows: ChainRows = /* @__PURE__ */ chainRows(protocol, unstable);
