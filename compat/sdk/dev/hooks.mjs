// Resolve hook: `@agentclientprotocol/sdk` entries the compatibility package implements load
// from its sources instead of node_modules, and so do the acp-router entries those sources import
// (by acp-router's public names); other specifiers resolve as usual.
import { acpRouterUrl } from "./acp-router-entries.mjs";
import { entryUrl } from "./entries.mjs";

export async function resolve(specifier, context, next) {
  const url = entryUrl(specifier) ?? acpRouterUrl(specifier);
  // Resolved by the next hook (tsx), so it loads the TypeScript source as it loads any other.
  return next(url ?? specifier, context);
}
