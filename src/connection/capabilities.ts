/** Capability paths (`["fs","readTextFile"]`) against advertised capability objects. */

/**
 * True when the value at `path` was advertised: present and neither `false`
 * nor `null`. Fails closed: missing objects mean not advertised. Own
 * properties only, so `__proto__` paths find nothing.
 */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let value = capabilities;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return value !== undefined && value !== null && value !== false;
}

/** `["fs","readTextFile"]` on the client → `clientCapabilities.fs.readTextFile`. */
export function capabilityName(side: "agent" | "client", path: readonly string[]): string {
  return `${side}Capabilities.${path.join(".")}`;
}
