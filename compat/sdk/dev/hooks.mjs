// Resolve hook: `@agentclientprotocol/sdk` entries the compatibility package implements load
// from its sources instead of node_modules (other entries resolve as usual).
import { entryUrl } from "./entries.mjs";

export async function resolve(specifier, context, next) {
  const url = entryUrl(specifier);
  // Resolved by the next hook (tsx), so it loads the TypeScript source as it loads any other.
  return next(url ?? specifier, context);
}
