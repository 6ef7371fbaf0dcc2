// DESIGN §9: the core runs outside Node (browsers, Deno, Bun). Only the stdio adapter and the
// remote transport's Node server adapters may import `node:` modules at run time, and the framer works without Node's Buffer.
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, runOk } from "../support/process.ts";

/** The only files allowed runtime `node:` imports: the stdio adapter (with its process lifecycle), the remote transport's Node server adapters, the MCP loopback HTTP bridge (`acp-router/mcp`, Node only) and trace-context propagation on AsyncLocalStorage (`acp-router/tracing`, Node only). */
const NODE_ADAPTERS = [
  join("src", "tracing", "propagate.ts"),
  join("src", "transport", "stdio.ts"),
  join("src", "transport", "process.ts"),
  join("src", "transport", "process-watcher.ts"),
  join("src", "remote", "node.ts"),
  join("src", "remote", "node-ws.ts"),
  join("src", "remote", "node-h2.ts"),
  join("src", "remote", "node-h1.ts"),
  join("src", "mcp", "bridge.ts"),
];

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

describe("the portable core", () => {
  it("imports no node: module at run time outside src/transport/stdio.ts, the remote transport's Node adapters and the MCP bridge", async () => {
    const offenders: string[] = [];
    for (const file of await sources(join(root, "src"))) {
      const rel = relative(root, file);
      if (NODE_ADAPTERS.includes(rel)) continue;
      const text = await readFile(file, "utf8");
      for (const line of text.split("\n")) if (/^\s*(import|export)\s(?!type\s).*from\s+"node:/.test(line)) offenders.push(`${rel}: ${line.trim()}`);
    }
    expect(offenders).toEqual([]);
  });

  it("imports the optional ws package only from src/remote/node-ws.ts", async () => {
    const importers: string[] = [];
    for (const file of await sources(join(root, "src"))) {
      const text = await readFile(file, "utf8");
      if (/^\s*import\s(?!type\s).*from\s+"ws"/m.test(text)) importers.push(relative(root, file));
    }
    expect(importers).toEqual([join("src", "remote", "node-ws.ts")]);
  });

  it("imports the optional @opentelemetry/api only from src/tracing/otel.ts (the acp-router/otel entry)", async () => {
    const importers: string[] = [];
    for (const file of await sources(join(root, "src"))) {
      const text = await readFile(file, "utf8");
      if (/^\s*import\s(?!type\s).*from\s+"@opentelemetry\//m.test(text)) importers.push(relative(root, file));
    }
    expect(importers).toEqual([join("src", "tracing", "otel.ts")]);
  });

  it("imports the optional MCP SDK packages only from src/mcp (the acp-router/mcp entry)", async () => {
    const importers: string[] = [];
    for (const file of await sources(join(root, "src"))) {
      const text = await readFile(file, "utf8");
      if (/^\s*import\s.*from\s+"@modelcontextprotocol\//m.test(text)) importers.push(relative(root, file));
    }
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !f.startsWith(join("src", "mcp")))).toEqual([]);
  });

  it("frames split multi-byte text with TextDecoder when there is no Buffer", async () => {
    const script = `
      // Loaded first: on Node 22 the TypeScript loader itself runs in this thread and needs Buffer.
      // The framer looks Buffer up when a framer is created, so deleting it afterwards still
      // takes the TextDecoder path.
      const { createFramer } = await import(${JSON.stringify(join(root, "src/transport/framer.ts"))});
      delete globalThis.Buffer;
      const lines = [];
      const framer = createFramer({ line: (l) => lines.push(l), oversized: () => lines.push("oversized") });
      const bytes = new TextEncoder().encode('{"t":"héllo ✓ 😀"}\\r\\n\\n{"u":1}');
      for (let i = 0; i < bytes.length; i++) framer.push(bytes.subarray(i, i + 1));
      framer.end();
      process.stdout.write(JSON.stringify({ hasBuffer: typeof Buffer !== "undefined", lines }));
    `;
    const { stdout } = await runOk(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeoutMs: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ hasBuffer: false, lines: ['{"t":"héllo ✓ 😀"}', '{"u":1}'] });
  });
});
