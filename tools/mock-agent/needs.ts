/**
 * What a step needs before it may run: a method the protocol version has, a
 * client capability the client advertised, an update kind the version knows.
 * `preflight` checks a whole turn, so a prompt that cannot run fails before
 * its first step (nothing half done).
 */
import type { Step } from "./steps.ts";
import { sampleKinds, updateSamples, type SampleVersion, type UpdateSample } from "./updates.ts";

/** The aliases `#updates` accepts, per version: alias → the kinds it sends. */
const aliases: Readonly<Record<SampleVersion, Readonly<Record<string, readonly string[]>>>> = {
  1: {
    message: ["agent_message_chunk"],
    user: ["user_message_chunk"],
    thought: ["agent_thought_chunk"],
    tool: ["tool_call", "tool_call_update"],
    plan: ["plan"],
    commands: ["available_commands_update"],
    mode: ["current_mode_update"],
    config: ["config_option_update"],
    usage: ["usage_update"],
    info: ["session_info_update"],
    notice: ["notice"],
    compaction: ["compaction_update", "compaction_summary_chunk"],
  },
  2: {
    message: ["agent_message_chunk", "agent_message"],
    user: ["user_message_chunk", "user_message"],
    thought: ["agent_thought_chunk", "agent_thought"],
    tool: ["tool_call_update", "tool_call_content_chunk"],
    plan: ["plan_update"],
    commands: ["available_commands_update"],
    config: ["config_option_update"],
    usage: ["usage_update"],
    info: ["session_info_update"],
    notice: ["notice"],
    compaction: ["compaction_update", "compaction_summary_chunk"],
    state: ["state_update"],
    terminal: ["terminal_update", "terminal_output_chunk"],
  },
};

/** The client methods each step calls, with the capability path that gates them (v1); v2 has neither fs nor terminal. */
const methodNeeds: Partial<Record<Step["op"], { readonly wire: string; readonly capability: readonly string[] }>> = {
  read: { wire: "fs/read_text_file", capability: ["fs", "readTextFile"] },
  write: { wire: "fs/write_text_file", capability: ["fs", "writeTextFile"] },
  terminal: { wire: "terminal/create", capability: ["terminal"] },
  elicit: { wire: "elicitation/create", capability: ["elicitation", "form"] },
};

/** True when `path` leads to a present, non-false, non-null value in `capabilities`. */
export function advertised(capabilities: unknown, path: readonly string[]): boolean {
  let at: unknown = capabilities;
  for (const key of path) {
    if (at === null || typeof at !== "object") return false;
    at = (at as Record<string, unknown>)[key];
  }
  return at !== undefined && at !== null && at !== false;
}

/** The samples `#updates KIND` sends for `version`, or undefined when the version has no such kind or alias. */
export function samplesFor(version: SampleVersion, kind: string): UpdateSample[] | undefined {
  const all = updateSamples(version);
  if (kind === "all") return all;
  const kinds = aliases[version][kind] ?? (sampleKinds(version).includes(kind) ? [kind] : undefined);
  return kinds === undefined ? undefined : all.filter((s) => kinds.includes(s.kind));
}

/** The `#updates` kinds and aliases `version` knows, for error messages. */
export function knownKinds(version: SampleVersion): string[] {
  return ["all", ...Object.keys(aliases[version]), ...sampleKinds(version)];
}

/** Why `step` cannot run on this connection, or undefined when it can. */
export function refusal(step: Step, version: SampleVersion, capabilities: unknown): string | undefined {
  if (step.op === "updates") {
    const samples = samplesFor(version, step.kind);
    if (samples === undefined) return `#updates ${step.kind}: ACP v${version} has no such update kind (known: ${knownKinds(version).join(", ")})`;
    if (step.kind === "all") return undefined;
    const missing = samples.find((s) => s.requires !== undefined && !advertised(capabilities, s.requires));
    if (missing?.requires) return `#updates ${step.kind}: ${missing.kind} needs the client capability ${missing.requires.join(".")}, which the client did not advertise`;
    return undefined;
  }
  const need = methodNeeds[step.op];
  if (need === undefined) return undefined;
  if (version === 2 && need.wire !== "elicitation/create") return `#${step.op}: ACP v2 has no ${need.wire} method (v2 clients offer no fs or terminal methods)`;
  if (!advertised(capabilities, need.capability)) return `#${step.op}: ${need.wire} needs the client capability ${need.capability.join(".")}, which the client did not advertise`;
  return undefined;
}

/** The first refusal among `steps`, or undefined when the whole turn can run. */
export function preflight(steps: readonly Step[], version: SampleVersion, capabilities: unknown): string | undefined {
  for (const step of steps) {
    const why = refusal(step, version, capabilities);
    if (why !== undefined) return why;
  }
  return undefined;
}
