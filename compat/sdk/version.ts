/**
 * The SDK drop-in's package name and version. The version says where it comes from:
 * `<SDK version>-acp-router.<acp-router version>`: the SDK release whose API it implements
 * (what code written against `@agentclientprotocol/sdk` may expect of it), then, as a
 * prerelease tag, the acp-router release it was built from. So `2.4.0-acp-router.0.1.0` is SDK
 * 2.4.0's API on acp-router 0.1.0; a new acp-router release gives a new drop-in version with the
 * same SDK API, and supporting a new SDK release changes the first part.
 */

/** The name the drop-in is published under (installed as `@agentclientprotocol/sdk` with an npm alias). */
export const DROP_IN_NAME = "acp-router-sdk";

/** The SDK release whose API the drop-in implements. */
export const SDK_VERSION = "2.4.0";

/** The drop-in's version when built from acp-router `acpRouterVersion`. */
export function dropInVersion(acpRouterVersion: string): string {
  return `${SDK_VERSION}-acp-router.${acpRouterVersion}`;
}
