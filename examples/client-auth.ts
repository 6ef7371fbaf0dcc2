/**
 * Authentication as an editor does it: list the methods an agent offers
 * (from `initialize`'s `authMethods`, or the `data.authMethods` of a
 * `-32000 Authentication required` error, where some agents put them) with
 * what each needs — the `env_var` method's variables, the login command of
 * `_meta["terminal-auth"]` or of a `terminal` method — and authenticate with
 * the one the user picked (`--auth ID`).
 */
import { RpcError } from "../src/index.ts";
import type { Transcript } from "./transcript.ts";

/** One offered method, read loosely: agents add fields the v1 schema does not name (`type: "env_var"`, `vars`). */
export interface OfferedMethod {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly description?: string;
  /** `env_var` methods: the variables that must be set. */
  readonly vars: readonly string[];
  /** The command a user runs to log in (`_meta["terminal-auth"]`, or a `terminal` method's args). */
  readonly terminal?: string;
}

/** The methods in a list as agents send it; entries without an id are left out. */
export function offeredMethods(list: unknown): OfferedMethod[] {
  if (!Array.isArray(list)) return [];
  const out: OfferedMethod[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null) continue;
    const m = item as Record<string, unknown>;
    if (typeof m.id !== "string") continue;
    const vars = Array.isArray(m.vars) ? m.vars.map((v) => (typeof v === "string" ? v : (v as { name?: unknown } | null)?.name)).filter((v): v is string => typeof v === "string") : [];
    const terminal = terminalCommand(m);
    out.push({ id: m.id, name: typeof m.name === "string" ? m.name : m.id, type: typeof m.type === "string" ? m.type : "agent", vars, ...(typeof m.description === "string" ? { description: m.description } : {}), ...(terminal ? { terminal } : {}) });
  }
  return out;
}

function terminalCommand(m: Record<string, unknown>): string | undefined {
  const meta = (m._meta as Record<string, unknown> | null | undefined)?.["terminal-auth"] as { command?: unknown; args?: unknown } | undefined;
  if (meta && typeof meta.command === "string") return [meta.command, ...(Array.isArray(meta.args) ? meta.args.map(String) : [])].join(" ");
  if (m.type === "terminal") return `(the agent's own command) ${Array.isArray(m.args) ? m.args.map(String).join(" ") : ""}`.trimEnd();
  return undefined;
}

/** The methods offered by an `Authentication required` error's data, if any. */
export function methodsOfError(error: unknown): OfferedMethod[] | undefined {
  if (!(error instanceof RpcError) || error.code !== -32000) return undefined;
  const data = error.data as { authMethods?: unknown } | null | undefined;
  return offeredMethods(data?.authMethods);
}

/** Writes the methods, one a line, with what each needs. */
export function listMethods(transcript: Transcript, methods: readonly OfferedMethod[]): void {
  if (methods.length === 0) return;
  transcript.note(`Authentication methods (use --auth ID):`);
  for (const m of methods) {
    const needs = [m.vars.length > 0 ? `set ${m.vars.join(", ")}` : "", m.terminal ? `log in with: ${m.terminal}` : ""].filter(Boolean).join("; ");
    transcript.note(`  ${m.id}: ${m.name} (${m.type})${m.description ? ` — ${m.description}` : ""}${needs ? `; ${needs}` : ""}`);
  }
}

/**
 * Authenticates with `id` through `authenticate`. An `env_var` method whose
 * variables are not all set fails here, before anything is sent; a
 * `terminal` method is not passed to `authenticate` (the spec forbids it):
 * the user runs its command instead.
 */
export async function authenticateWith(agent: { authenticate(params: { methodId: string }): Promise<unknown> }, methods: readonly OfferedMethod[], id: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const method = methods.find((m) => m.id === id);
  if (!method) throw new Error(`the agent offers no authentication method ${JSON.stringify(id)}${methods.length > 0 ? ` (it offers ${methods.map((m) => m.id).join(", ")})` : ""}`);
  const missing = method.vars.filter((v) => env[v] === undefined || env[v] === "");
  if (missing.length > 0) throw new Error(`authentication method ${id} needs ${missing.join(", ")} set in the environment`);
  if (method.type === "terminal") throw new Error(`authentication method ${id} is a terminal login: run ${method.terminal ?? "the agent's login"} yourself`);
  await agent.authenticate({ methodId: id });
}
