/**
 * Authentication as `check` sees it: the methods an agent lists (in its
 * `initialize` answer, or in the `data.authMethods` of a -32000 error, as
 * qwen-code and pi-acp put them), their wording for evidence, and
 * `--auth METHOD_ID`: an `agent` or `env_var` method is passed to
 * `authenticate` (v1) or `auth/login` (v2) before session/new; an `env_var`
 * method needs its variables in check's environment, which the agent
 * inherits. A `terminal` method is never passed to authenticate
 * (ACP-AUTH-101): check says so and goes on unauthenticated.
 */
import { describeError, type Run } from "./kit.ts";

/** One auth method, as listed: its id, type (`agent` when absent) and env var names. */
export interface AuthMethod {
  readonly id: string;
  readonly type: string;
  readonly vars: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The methods in a list (v1 `id`, v2 `methodId`); entries without an id are skipped. */
export function authMethods(list: unknown): AuthMethod[] {
  if (!Array.isArray(list)) return [];
  const out: AuthMethod[] = [];
  for (const m of list) {
    if (!isObject(m)) continue;
    const id = typeof m.id === "string" ? m.id : typeof m.methodId === "string" ? m.methodId : undefined;
    if (id === undefined) continue;
    const vars = Array.isArray(m.vars) ? m.vars.flatMap((v) => (isObject(v) && typeof v.name === "string" ? [v.name] : [])) : [];
    out.push({ id, type: typeof m.type === "string" ? m.type : "agent", vars });
  }
  return out;
}

/** `a (agent), b (env_var CODEX_API_KEY)`, or `none listed`. */
export function describeMethods(methods: readonly AuthMethod[]): string {
  if (methods.length === 0) return "none listed";
  return methods.map((m) => `${m.id} (${m.type}${m.vars.length > 0 ? ` ${m.vars.join(", ")}` : ""})`).join(", ");
}

/** The methods of a -32000 error's `data.authMethods`, merged after `listed` (same ids once). */
export function mergeMethods(listed: readonly AuthMethod[], errorData: unknown): AuthMethod[] {
  const more = authMethods(isObject(errorData) ? errorData.authMethods : undefined);
  const seen = new Set(listed.map((m) => m.id));
  return [...listed, ...more.filter((m) => !seen.has(m.id))];
}

/**
 * Authenticates with `--auth`'s method; resolves with undefined on success,
 * else why the session probes cannot run authenticated.
 */
export async function authenticate(run: Run, methods: readonly AuthMethod[], wanted: string, method: "authenticate" | "auth/login"): Promise<string | undefined> {
  const m = methods.find((x) => x.id === wanted);
  if (m?.type === "terminal") return `--auth ${wanted} is a terminal method: run the agent's login command yourself; clients never pass it to authenticate`;
  if (m === undefined) run.card.notes.push(`--auth ${wanted}: the agent lists no such method (it lists ${describeMethods(methods)}); sent anyway`);
  const unset = (m?.vars ?? []).filter((v) => process.env[v] === undefined);
  if (unset.length > 0) run.card.notes.push(`--auth ${wanted}: ${unset.join(", ")} not set in check's environment, which the agent inherits`);
  const answer = await run.d.request(method, { methodId: wanted });
  if (answer === undefined) return `${method} with ${wanted} got no answer within ${run.d.timeout / 1000} s`;
  if (answer.error !== undefined) return `${method} with ${wanted} failed: ${describeError(answer)}`;
  run.card.notes.push(`authenticated with ${wanted} (${m?.type ?? "unlisted"})`);
  return undefined;
}
