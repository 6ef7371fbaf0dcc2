/**
 * The suite's ledger (ledger.json, tracked): every test of SDK 1.9.0's suite, its outcome on each
 * target, and its class. `entriesOf(results)` builds the entries a run shows; `drift(ledger, run)`
 * names every difference between the two; `summary(entries)` is the one line `npm run test:sdk-suite`
 * prints.
 *
 * Classes: `internal` (the file reaches no redirected module), `removed` (fails on the real 2.4.0:
 * the API it tests is gone), `applicable` (the rest; the drop-in should pass them). An applicable
 * test the drop-in fails is `documented` (with the title of its row in docs/sdk-drop-in.md) or
 * `open` (a gap not yet closed).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { FILE_FAILED, type Outcome } from "./reporter.ts";

/** The targets, in the order the ledger lists them. */
export const targets = ["baseline", "real", "drop-in"] as const;

/** A target's name. */
export type Target = (typeof targets)[number];

/** A test's outcome on a target. */
export type State = "pass" | "fail";

/** A test's class (module doc). */
export type TestClass = "internal" | "removed" | "applicable" | "documented" | "open";

/** One test in the ledger. `row` names the docs/sdk-drop-in.md row of a `documented` test. */
export type Entry = { file: string; name: string; outcomes: Record<Target, State>; class: TestClass; row?: string };

/** The key of a test: its file and full name. */
export const keyOf = (e: { file: string; name: string }): string => `${e.file} > ${e.name}`;

/** The files during whose run a target left an unhandled error (sorted), by target. */
export type Unhandled = Partial<Record<Target, string[]>>;

/** Reads the ledger at `path` (an empty ledger if there is none yet): its tests by key, and its unhandled-error files. */
export function readLedger(path: string): { tests: Map<string, Entry>; unhandled: Unhandled } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { tests: new Map(), unhandled: {} };
  }
  const ledger = JSON.parse(text) as { tests: Entry[]; unhandled?: Unhandled };
  return { tests: new Map(ledger.tests.map((e) => [keyOf(e), e])), unhandled: ledger.unhandled ?? {} };
}

/** Writes `entries` and `unhandled` to `path`, one test per line, sorted by key, so a change reads as a one-line diff per test. */
export function writeLedger(path: string, entries: Iterable<Entry>, unhandled: Unhandled): void {
  const sorted = [...entries].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const lines = sorted.map((e) => `    ${JSON.stringify(e)}`);
  writeFileSync(path, `{\n  "format": 1,\n  "unhandled": ${JSON.stringify(unhandled)},\n  "tests": [\n${lines.join(",\n")}\n  ]\n}\n`);
}

/** Each target's unhandled-error files that differ from the ledger's, one line each. */
export function unhandledDrift(ledger: Unhandled, run: Unhandled): string[] {
  const lines: string[] = [];
  for (const t of targets) {
    const was = new Set(ledger[t] ?? []);
    const now = new Set(run[t] ?? []);
    for (const f of now) if (!was.has(f)) lines.push(`unhandled error on ${t} while ${f} ran, which the ledger does not list`);
    for (const f of was) if (!now.has(f)) lines.push(`no unhandled error on ${t} while ${f} ran any more (the ledger lists one)`);
  }
  return lines;
}

/**
 * The ledger entries a run shows, from every target's outcomes. A file that failed before its tests
 * ran on a target (an entry it imports is missing) fails each of its tests, as the baseline lists
 * them, on that target. `internal(file)` says whether a file is internal; `previous` gives the class
 * (`documented` with its row, or `open`) an applicable test the drop-in fails keeps.
 */
export function entriesOf(outcomes: readonly Outcome[], internal: (file: string) => boolean, previous: ReadonlyMap<string, Entry>): Map<string, Entry> {
  const byKey = new Map<string, { file: string; name: string; outcomes: Partial<Record<Target, State>> }>();
  const seen = new Map<string, number>();
  const record = (target: Target, file: string, name: string, state: State): void => {
    // Two tests of one file with the same full name are told apart by their order.
    const base = `${target}\0${keyOf({ file, name })}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const unique = n === 1 ? name : `${name} (#${n})`;
    const key = keyOf({ file, name: unique });
    const entry = byKey.get(key) ?? { file, name: unique, outcomes: {} };
    entry.outcomes[target] = state;
    byKey.set(key, entry);
  };
  const target = (o: Outcome): Target => {
    if (!(targets as readonly string[]).includes(o.target)) throw new Error(`unknown target ${o.target}`);
    return o.target as Target;
  };
  const failedFiles = outcomes.filter((o) => o.name === FILE_FAILED);
  for (const o of outcomes) if (o.name !== FILE_FAILED) record(target(o), o.file, o.name, o.state === "passed" ? "pass" : "fail");
  for (const f of failedFiles) for (const o of outcomes) if (o.target === "baseline" && o.file === f.file && o.name !== FILE_FAILED) record(target(f), o.file, o.name, "fail");
  const entries = new Map<string, Entry>();
  for (const [key, e] of byKey) {
    for (const t of targets) if (e.outcomes[t] === undefined) throw new Error(`${key} did not run on ${t}`);
    const states = e.outcomes as Record<Target, State>;
    let cls: TestClass = internal(e.file) ? "internal" : states.real === "fail" ? "removed" : "applicable";
    let row: string | undefined;
    if (cls === "applicable" && states["drop-in"] === "fail") {
      const before = previous.get(key);
      cls = before?.class === "documented" ? "documented" : "open";
      row = before?.class === "documented" ? before.row : undefined;
    }
    entries.set(key, { file: e.file, name: e.name, outcomes: states, class: cls, ...(row === undefined ? {} : { row }) });
  }
  return entries;
}

/** Every difference between the ledger and a run, one line each (empty when they agree). */
export function drift(ledger: ReadonlyMap<string, Entry>, run: ReadonlyMap<string, Entry>): string[] {
  const lines: string[] = [];
  for (const [key, e] of run) {
    const was = ledger.get(key);
    if (was === undefined) {
      lines.push(`new test: ${key} (${describe(e)})`);
      continue;
    }
    for (const t of targets) if (was.outcomes[t] !== e.outcomes[t]) lines.push(`${key}: ${t} ${was.outcomes[t]} in the ledger, ${e.outcomes[t]} now`);
    if (was.class !== e.class) lines.push(`${key}: class ${was.class} in the ledger, ${e.class} now`);
  }
  for (const key of ledger.keys()) if (!run.has(key)) lines.push(`missing test: ${key}`);
  return lines;
}

/** Checks each `documented` entry names a row of the doc (its text); returns a line per entry that does not. */
export function undocumented(entries: Iterable<Entry>, doc: string): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.class !== "documented") continue;
    if (e.row === undefined || e.row === "" || !doc.includes(e.row)) lines.push(`${keyOf(e)}: documented, but docs/sdk-drop-in.md has no row "${e.row ?? ""}"`);
  }
  return lines;
}

const describe = (e: Entry): string => `${targets.map((t) => `${t} ${e.outcomes[t]}`).join(", ")}, ${e.class}`;

/** The one line: `sdk-suite: baseline B/T, applicable A, drop-in P pass, documented D, internal I, removed R`. */
export function summary(entries: Iterable<Entry>): string {
  let total = 0;
  let baseline = 0;
  let applicable = 0;
  let pass = 0;
  let documented = 0;
  let internal = 0;
  let removed = 0;
  for (const e of entries) {
    total++;
    if (e.outcomes.baseline === "pass") baseline++;
    if (e.class === "internal") internal++;
    else if (e.class === "removed") removed++;
    else {
      applicable++;
      if (e.outcomes["drop-in"] === "pass") pass++;
      if (e.class === "documented") documented++;
    }
  }
  return `sdk-suite: baseline ${baseline}/${total}, applicable ${applicable}, drop-in ${pass} pass, documented ${documented}, internal ${internal}, removed ${removed}`;
}
