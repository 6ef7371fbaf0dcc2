/**
 * Which ACP SDK an installed real agent runs on, read from its install folder after the run, and the
 * behaviours of a scorecard that come from that SDK rather than from the agent's own code: the one
 * whole-batch refusal ("JSON-RPC batches are not supported") and request ids beyond ±(2^53−1) answered
 * rounded (the SDK reads each line with `JSON.parse`, which holds numbers as doubles). A behaviour is
 * attributed only when the installed SDK's own files show it (the refusal's text, a `JSON.parse` of the
 * line), so a card never blames an SDK for what its agent did itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The SDK package names: the official one, and its earlier name (the same SDK before it moved). */
const SDK_NAMES = ["@agentclientprotocol/sdk", "@zed-industries/agent-client-protocol"] as const;
/** The refusal the SDK answers a JSON-RPC batch with (core/jsonrpc.js in 2.x). */
export const SDK_BATCH_REFUSAL = "JSON-RPC batches are not supported";

/** A line of the stream parsed with JSON.parse (`JSON.parse(trimmedLine)` in SDK 2.x's core/stream.js). */
const LINE_PARSE = /JSON\.parse\(\s*\w*[lL]ine\w*\s*\)/;

/** The SDK an agent depends on, as installed beside it. */
export interface AgentSdk {
  /** The package name (`@agentclientprotocol/sdk`, or the earlier `@zed-industries/agent-client-protocol`). */
  readonly name: string;
  readonly version: string;
  /** Whether the installed SDK's files hold the whole-batch refusal text. */
  readonly refusesBatches: boolean;
  /** Whether the installed SDK's files parse a whole line with `JSON.parse` (so ids beyond 2^53 arrive rounded). */
  readonly parsesWithJsonParse: boolean;
}

/** Every .js file under `dir`, at most `limit` of them (an SDK's dist holds a few hundred). */
function jsFiles(dir: string, limit = 2000): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (out.length >= limit) return;
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) {
        if (name !== "node_modules") walk(p);
      } else if (name.endsWith(".js") || name.endsWith(".mjs") || name.endsWith(".cjs")) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The SDK the agent package `pkg` (installed in `folder`) depends on: the copy in its own node_modules, else the
 * one hoisted beside it; undefined when the agent's package.json names no SDK (a binary agent, or one with its own
 * JSON-RPC code).
 */
export function sdkOf(folder: string, pkg: string): AgentSdk | undefined {
  const agentDir = join(folder, "node_modules", pkg);
  let deps: Record<string, string> = {};
  try {
    const manifest = JSON.parse(readFileSync(join(agentDir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; bundleDependencies?: unknown; bundledDependencies?: unknown };
    deps = manifest.dependencies ?? {};
  } catch {
    return undefined;
  }
  for (const name of SDK_NAMES) {
    if (deps[name] === undefined) continue;
    for (const dir of [join(agentDir, "node_modules", name), join(folder, "node_modules", name)]) {
      if (!existsSync(join(dir, "package.json"))) continue;
      const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
      let refusesBatches = false;
      let parsesWithJsonParse = false;
      for (const file of jsFiles(dir)) {
        const text = readFileSync(file, "utf8");
        refusesBatches ||= text.includes(SDK_BATCH_REFUSAL);
        parsesWithJsonParse ||= LINE_PARSE.test(text);
        if (refusesBatches && parsesWithJsonParse) break;
      }
      return { name, version, refusesBatches, parsesWithJsonParse };
    }
  }
  return undefined;
}

/** What a card showed that an SDK may be behind: a whole-batch refusal with the SDK's text, an id beyond ±(2^53−1) answered rounded. */
export interface SdkSigns {
  readonly batchRefused: boolean;
  readonly idRounded: boolean;
}

/** The signs in a report: the refusal's text anywhere in its rows or notes, an interoperability finding of an id answered with another id. */
export function signsOf(report: { readonly rows: readonly { readonly evidence?: string | undefined }[]; readonly notes: readonly string[]; readonly sections?: readonly { readonly findings: readonly { readonly outcome: string }[] }[] | undefined }): SdkSigns {
  const texts = [...report.rows.map((r) => r.evidence ?? ""), ...report.notes];
  return {
    batchRefused: texts.some((t) => t.includes(SDK_BATCH_REFUSAL)),
    idRounded: (report.sections ?? []).some((s) => s.findings.some((f) => /^answered with id -?\d/.test(f.outcome))),
  };
}

/**
 * The line a card shows under its heading for an agent built on an SDK: which one, and which behaviours the card
 * shows come from it (only those the card shows, and only when the installed SDK's files hold them).
 */
export function sdkLine(sdk: AgentSdk, signs: SdkSigns): string {
  const from: string[] = [];
  if (sdk.refusesBatches && signs.batchRefused) from.push(`its answer to a JSON-RPC batch (one -32600 "${SDK_BATCH_REFUSAL}", written by the SDK before the agent's code sees the batch)`);
  if (sdk.parsesWithJsonParse && signs.idRounded) from.push("its answer to a request id beyond ±(2^53−1) with another id (the SDK reads each line with JSON.parse, which holds such an id as the nearest double)");
  return `Built on ${sdk.name} ${sdk.version} (a dependency of the agent, read from its install)${from.length > 0 ? `: ${from.join("; ")} come${from.length === 1 ? "s" : ""} from that SDK, not from the agent's own code` : ""}.`;
}

/** Whether a fail row's evidence is the SDK's batch refusal: then the card says the SDK wrote it. */
export const fromSdkBatchRefusal = (sdk: AgentSdk | undefined, evidence: string | undefined): boolean => sdk?.refusesBatches === true && (evidence ?? "").includes(SDK_BATCH_REFUSAL);
