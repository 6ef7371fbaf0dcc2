/**
 * `mock-agent --script FILE`: a JSON scenario the mock agent replays instead
 * of reading the prompt text, and the agent capabilities it needs.
 *
 *     {
 *       "needs": ["loadSession", "list", "close", "modes", "configOptions"],
 *       "turns": [
 *         "#updates all",
 *         ["#permission", "#read notes.txt", "done"]
 *       ]
 *     }
 *
 * - `turns` (required, non-empty): prompt N of a session runs `turns[N]`,
 *   whatever the prompt says; a turn is prompt text (a string in the
 *   grammar of `mock-agent --help`) or an array of its lines. Prompts after
 *   the last turn are read from their own text.
 * - `needs` (optional, default none): the agent capabilities advertised in
 *   `initialize`; a scenario gets exactly what it declares, so a client is
 *   tested against an agent without the rest.
 * - `process` (optional, default none): how the process behaves from its
 *   start, for testing a client's supervision: `"ignore-term"` (SIGTERM does
 *   nothing), `"linger"` (it keeps running after stdin closes),
 *   `"grandchild"` (it starts a grandchild that ignores SIGTERM and SIGHUP
 *   and holds its stdout) — tools/mock-agent/lifetime.ts.
 *
 * Every turn is parsed up front: an error names the file, the turn and the line.
 */
import { readFileSync } from "node:fs";
import { PROCESS_BEHAVIOURS, type ProcessBehaviour } from "./lifetime.ts";
import type { Advertise } from "./sessions.ts";
import { parseSteps, type Step } from "./steps.ts";

/** A parsed scenario. */
export interface Scenario {
  readonly advertise: Advertise;
  readonly turns: readonly (readonly Step[])[];
  /** Process behaviours turned on at start (`"process"`). */
  readonly process: readonly ProcessBehaviour[];
}

const NEEDS = ["loadSession", "list", "close", "modes", "configOptions"] as const;

/** Parses scenario text; throws an Error whose message says what is wrong and where. */
export function parseScenario(text: string, name = "scenario"): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error(`${name}: a scenario is a JSON object with "turns" (and optionally "needs")`);
  const { turns, needs, process: behaviours, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new Error(`${name}: unknown key ${JSON.stringify(extra[0])} (a scenario has "turns", "needs" and "process")`);
  if (behaviours !== undefined && (!Array.isArray(behaviours) || !behaviours.every((b) => (PROCESS_BEHAVIOURS as readonly unknown[]).includes(b)))) throw new Error(`${name}: "process" must be an array of ${PROCESS_BEHAVIOURS.join(", ")}`);
  if (!Array.isArray(turns) || turns.length === 0) throw new Error(`${name}: "turns" must be a non-empty array of prompt texts (strings or arrays of lines)`);
  const parsed = turns.map((turn: unknown, i) => {
    const lines = typeof turn === "string" ? turn : Array.isArray(turn) && turn.every((l) => typeof l === "string") ? turn.join("\n") : undefined;
    if (lines === undefined) throw new Error(`${name}: turns[${i}] must be a string or an array of strings`);
    const result = parseSteps(lines);
    if ("error" in result) throw new Error(`${name}: turns[${i}] line ${result.line}: ${result.error}`);
    return result.steps;
  });
  const advertise: Record<(typeof NEEDS)[number], boolean> = { loadSession: false, list: false, close: false, modes: false, configOptions: false };
  if (needs !== undefined) {
    if (!Array.isArray(needs)) throw new Error(`${name}: "needs" must be an array of ${NEEDS.join(", ")}`);
    for (const need of needs as unknown[]) {
      if (typeof need !== "string" || !(NEEDS as readonly string[]).includes(need)) throw new Error(`${name}: unknown need ${JSON.stringify(need)} (known: ${NEEDS.join(", ")})`);
      advertise[need as (typeof NEEDS)[number]] = true;
    }
  }
  return { advertise, turns: parsed, process: (behaviours ?? []) as ProcessBehaviour[] };
}

/** Reads and parses the scenario file at `path`. */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`${path}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseScenario(text, path);
}
