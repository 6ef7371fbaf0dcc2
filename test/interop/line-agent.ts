// The raw-line machinery the differential tests share (differential.test.ts, differential-v2.test.ts):
// an agent subprocess spoken to in raw NDJSON lines, and one-line summaries of what it wrote.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export type Wire = Record<string, unknown>;

export const isObject = (v: unknown): v is Wire => typeof v === "object" && v !== null && !Array.isArray(v);
/** A response body: no method, and a result or an error. */
export const isResponse = (v: unknown): v is Wire => isObject(v) && typeof v.method !== "string" && ("result" in v || "error" in v);

/** An agent subprocess spoken to in raw lines; every line it writes is kept, parsed. */
export class LineAgent {
  readonly child: ChildProcess;
  readonly received: unknown[] = [];
  exited = false;
  private wake: (() => void) | undefined;
  private readonly exit: Promise<void>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr?.resume();
    this.child.stdin?.on("error", () => {});
    createInterface({ input: this.child.stdout!, crlfDelay: Infinity }).on("line", (text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = { unparsable: text.slice(0, 200) };
      }
      this.received.push(value);
      this.wake?.();
    });
    this.exit = new Promise((resolve) =>
      this.child.once("exit", () => {
        this.exited = true;
        this.wake?.();
        resolve();
      }),
    );
  }

  send(text: string): void {
    this.child.stdin?.write(`${text}\n`);
  }

  /** Waits until a line from index `from` on satisfies `match`; false on timeout or exit. */
  async waitFor(match: (v: unknown) => boolean, from: number, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!this.received.slice(from).some(match)) {
      const left = end - Date.now();
      if (this.exited || left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return true;
  }

  /** Sends a request and returns its answer. */
  async call(id: string, method: string, params: unknown): Promise<Wire> {
    const from = this.received.length;
    this.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    if (!(await this.waitFor((v) => isResponse(v) && v.id === id, from, 10_000))) throw new Error(`no answer to ${method}`);
    return this.received.slice(from).find((v) => isResponse(v) && v.id === id) as Wire;
  }

  async close(): Promise<void> {
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 2000);
    await this.exit;
    clearTimeout(timer);
  }
}

export const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A one-line human summary of one line an agent wrote. */
export function summarize(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(summarize).join(", ")}]`;
  if (!isObject(v)) return `?${clip(JSON.stringify(v))}`;
  if (typeof v.method === "string") return `${v.method} notification`;
  const id = JSON.stringify(v.id);
  if (isObject(v.error)) {
    const data = v.error.data === undefined ? "" : ` data:${clip(JSON.stringify(v.error.data), 40)}`;
    return `${String(v.error.code)} id:${id} ${clip(JSON.stringify(v.error.message), 50)}${data}`;
  }
  return `result id:${id} ${clip(JSON.stringify(v.result) ?? "undefined", 40)}`;
}
export const summary = (answers: unknown[] | "exited") => (answers === "exited" ? "(agent exited)" : answers.length === 0 ? "—" : answers.map(summarize).join(" + "));

/** What decides whether two answers are "the same": kind, id, error code, result type. */
export function key(answers: unknown[] | "exited"): string {
  if (answers === "exited") return "exited";
  const one = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(one);
    if (!isObject(v)) return "?";
    if (typeof v.method === "string") return ["notification", v.method];
    if (isObject(v.error)) return ["error", v.id, v.error.code];
    return ["result", v.id, v.result === null ? "null" : typeof v.result];
  };
  return JSON.stringify(answers.map(one));
}
