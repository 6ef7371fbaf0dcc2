/**
 * How the example client answers `session/request_permission`: a fixed
 * policy (`allow`, `reject`, `cancel`) or a function, e.g. one that asks
 * the person at the terminal.
 */
import type { PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest } from "../src/index.ts";

export type PermissionPolicy = "allow" | "reject" | "cancel" | ((request: RequestPermissionRequest, signal: AbortSignal) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>);

const PREFERENCE: Record<"allow" | "reject", readonly PermissionOptionKind[]> = {
  allow: ["allow_once", "allow_always"],
  reject: ["reject_once", "reject_always"],
};

/**
 * Applies `policy`: `allow` picks the first allow option (once before
 * always), `reject` the first reject option; with no such option the
 * request is answered `cancelled`.
 */
export async function decidePermission(policy: PermissionPolicy, request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionOutcome> {
  if (typeof policy === "function") return policy(request, signal);
  if (policy === "cancel") return { outcome: "cancelled" };
  for (const kind of PREFERENCE[policy]) {
    const option = request.options.find((o) => o.kind === kind);
    if (option) return { outcome: "selected", optionId: option.optionId };
  }
  return { outcome: "cancelled" };
}
