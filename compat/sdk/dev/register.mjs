// `node --import tsx --import ./compat/sdk/dev/register.mjs program.ts` runs `program.ts` with
// `@agentclientprotocol/sdk` replaced by the compatibility package's sources (no build, no install).
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
