/**
 * Envelope check of a `request` (DESIGN §4.4): `jsonrpc` must be "2.0" and
 * `params` absent or an object. A malformed request keeps its id.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { FieldError } from "../validation/check.ts";

/** Returns undefined for a valid envelope, else the `-32600` error to answer. */
export function checkEnvelope(body: Record<string, unknown>): ErrorObject | undefined {
  const params = body.params;
  if (body.jsonrpc === "2.0" && (params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params)))) return undefined;
  const errors: FieldError[] = [];
  if (body.jsonrpc !== "2.0") errors.push({ path: "/jsonrpc", message: 'must be "2.0"' });
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) errors.push({ path: "/params", message: "must be an object when present" });
  return wireError.invalidRequest(`Invalid request: ${errors.map((e) => `${e.path.slice(1)} ${e.message}`).join("; ")}`, { errors });
}
