/**
 * How `npm run test:check-rows` makes a row pass or fail: a mode is a base stub (an agent for `check`, a client
 * for `check --client`, with the options check runs it with) plus faults of the relay
 * (test/fixtures/rows/mutate.mjs), each of which breaks one rule on the way through (or, named `pass:…`, adds a
 * feature a row needs to be judged). Faults of one group touch different messages, so one run carries a whole
 * group: a run is a base and a group, and every row its faults name is judged on it.
 */
import { fileURLToPath } from "node:url";
import { bundledCli } from "../support.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
/** The relay that injects the faults. */
export const RELAY = fixture("rows/mutate.mjs");

/** A stub check runs: its command, check's extra options for it, and how long check waits for each answer. */
export interface Base {
  readonly command: readonly string[];
  readonly options: readonly string[];
  /** `--timeout` in seconds: 1 for the plain JavaScript stubs, 3 for mock-agent (the whole library behind it: a bigger start and more work per answer). */
  readonly timeout: number;
  /** Which side check scores: an agent (`check`) or a client (`check --client`, the command holding `{agent}`). */
  readonly side: "agent" | "client";
}

const node = process.execPath;
/** The base stubs, by name. A name with `:` adds a stub mode (`depth1:load-answer-first`). */
export const BASES: Readonly<Record<string, Base>> = {
  depth1: { command: [node, fixture("check-depth-agent.mjs")], options: ["--protocol", "1"], timeout: 1, side: "agent" },
  agent1: { command: [node, fixture("check-agent.mjs")], options: ["--protocol", "1"], timeout: 1, side: "agent" },
  mock1: { command: bundledCli("mock-agent"), options: ["--protocol", "1"], timeout: 3, side: "agent" },
  mock2: { command: bundledCli("mock-agent"), options: ["--protocol", "2"], timeout: 3, side: "agent" },
  v2stub: { command: [node, fixture("check-v2-agent.mjs")], options: ["--protocol", "2"], timeout: 1, side: "agent" },
  // Clients: `{agent}` is where check --client puts its agent (and where the relay goes in front of it).
  client1: { command: [node, fixture("clients/scripted-client.mjs"), "--agent", "{agent}"], options: ["--client"], timeout: 1, side: "client" },
  client2: { command: [node, fixture("clients/scripted-client.mjs"), "v2", "--agent", "{agent}"], options: ["--client"], timeout: 1, side: "client" },
};

/** The command and options of a base name, with its stub mode (after `:`): an agent's after its command, a client's before `--agent`. */
export function baseOf(name: string): Base {
  const [key = "", mode] = name.split(":");
  const base = BASES[key];
  if (base === undefined) throw new Error(`check-rows: no base named ${key}`);
  if (mode === undefined) return base;
  if (base.side === "agent") return { ...base, command: [...base.command, ...mode.split(" ")] };
  const at = base.command.indexOf("--agent");
  return { ...base, command: [...base.command.slice(0, 2), mode, ...base.command.slice(at)] };
}

/** `base`'s command with the relay and `faults` in front of the agent: the agent command itself, or a client's `{agent}`. */
export function withRelay(base: Base, faults: readonly string[]): readonly string[] {
  if (faults.length === 0) return base.command;
  if (base.side === "agent") return [process.execPath, RELAY, faults.join(","), "--", ...base.command];
  return base.command.map((w) => (w === "{agent}" ? `${process.execPath} ${RELAY} ${faults.join(",")} -- {agent}` : w));
}

/** One fault's expectation: the base it wraps, the group it runs in, and the rows it must fail (or, `pass:`, make pass). */
export interface FaultCase {
  readonly fault: string;
  readonly base: string;
  readonly group: string;
  readonly fails?: readonly string[];
  readonly passes?: readonly string[];
}

/** A row whose verdict a plain base run decides: pass there. */
export interface PlainPass {
  readonly base: string;
  readonly rows: readonly string[];
}

/** `fault` breaks `rows` on `base`, in `group`. A fault named `mode:X` is the base stub's own mode X, not a relay fault. */
export const breaks = (fault: string, rows: readonly string[], base: string, group: string): FaultCase => ({ fault, base, group, fails: rows });
/** The `pass:` fault `fault` gives `base` what `rows` need to pass, in `group`. */
export const enables = (fault: string, rows: readonly string[], base: string, group: string): FaultCase => ({ fault, base, group, passes: rows });
