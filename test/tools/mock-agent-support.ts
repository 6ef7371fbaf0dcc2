/**
 * Shared pieces of the mock-agent tests: the command line, a `--listen`
 * server started as a process (URL read from stderr), a scratch cwd with a
 * file to read, and the transcript of the example client cut per prompt.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acpRouter } from "./support.ts";
import { tempDir } from "../support/temp.ts";

/** `acp-router mock-agent <args…>` through the package's bin. */
export const mockAgent = (...args: string[]) => acpRouter("mock-agent", ...args);

/** The text `#read notes.txt` finds in the scratch cwd. */
export const NOTES = "line one\nline two\n";

/** A fresh cwd holding `notes.txt`. */
export function mockCwd(): string {
  const dir = tempDir("acp-mock-agent-");
  writeFileSync(join(dir, "notes.txt"), NOTES);
  return dir;
}

/** Starts `mock-agent --listen 127.0.0.1:0 [...extra]`; resolves with its URL and a stop that awaits its exit code. */
export async function listeningMockAgent(extra: string[] = []): Promise<{ url: string; stderr(): string; stop(): Promise<number | null> }> {
  const [file, ...args] = mockAgent("--listen", "127.0.0.1:0", ...extra) as [string, ...string[]];
  const child = spawn(file, args, { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock-agent did not listen within 20 s: ${stderr}`)), 20_000);
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      const m = /serving at (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once("exit", () => reject(new Error(`mock-agent exited: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The example client's transcript cut at each prompt line (`> PROMPT`): prompt → what followed it. */
export function segments(transcript: string, prompts: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  let rest = transcript;
  for (const [i, prompt] of prompts.entries()) {
    const at = rest.indexOf(`> ${prompt}\n`);
    if (at === -1) break;
    rest = rest.slice(at + prompt.length + 3);
    const next = prompts[i + 1];
    const end = next === undefined ? -1 : rest.indexOf(`> ${next}\n`);
    found.set(prompt, end === -1 ? rest : rest.slice(0, end));
  }
  return found;
}
