// Each entry exports exactly its own schema's error codes (generated from `$defs.ErrorCode` into each
// table's errors.ts), and every one of them is a code the runtime names under the same name.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ErrorCode as runtime } from "../../src/errors.ts";
import { ErrorCode as v1 } from "../../src/index.ts";
import { ErrorCode as unstable } from "../../src/unstable/index.ts";
import { ErrorCode as v2 } from "../../src/v2/index.ts";
import { ErrorCode as v2Unstable } from "../../src/v2/unstable/index.ts";

const schemaCodes = (file: string): number[] => {
  const schema = JSON.parse(readFileSync(new URL(`../../schemas/@agentclientprotocol/sdk/schema/${file}`, import.meta.url), "utf8")) as { $defs: { ErrorCode: { anyOf: { const?: number }[] } } };
  return schema.$defs.ErrorCode.anyOf.flatMap((v) => (v.const === undefined ? [] : [v.const])).sort((a, b) => a - b);
};
const values = (codes: Record<string, number>) => Object.values(codes).sort((a, b) => a - b);

describe("error codes per table", () => {
  it.each([
    ["acp-router (v1)", v1, "v1/schema.json"],
    ["acp-router/unstable", unstable, "v1/schema.unstable.json"],
    ["acp-router/v2", v2, "v2/schema.json"],
    ["acp-router/v2/unstable", v2Unstable, "v2/schema.unstable.json"],
  ] as const)("%s exports exactly its schema's codes", (_entry, codes, file) => {
    expect(values(codes)).toEqual(schemaCodes(file));
  });

  it("puts -32022 in v2's list only", () => {
    expect(v2.UnsupportedProtocolVersion).toBe(-32022);
    expect("UnsupportedProtocolVersion" in v1).toBe(false);
    expect("UnsupportedProtocolVersion" in unstable).toBe(false);
  });

  it("names every table's code in the runtime's list, under the same name", () => {
    for (const codes of [v1, unstable, v2, v2Unstable]) for (const [name, code] of Object.entries(codes)) expect([name, runtime[name as keyof typeof runtime]]).toEqual([name, code]);
    // And the runtime names nothing no table defines.
    expect(values(runtime)).toEqual([...new Set([...values(v1), ...values(v2), ...values(unstable), ...values(v2Unstable)])].sort((a, b) => a - b));
  });
});

describe("every code named", () => {
  it("writes or compares no literal error code in src/ or tools/ outside the error modules", () => {
    const root = new URL("../../", import.meta.url);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(new URL(dir, root), { withFileTypes: true })) {
        const path = `${dir}${entry.name}`;
        if (entry.isDirectory()) {
          if (entry.name !== "generated" && entry.name !== "node_modules") walk(`${path}/`);
        } else if (path.endsWith(".ts") && path !== "src/errors.ts") {
          const lines = readFileSync(new URL(path, root), "utf8").split("\n");
          // Code, not prose: a code assigned (`code: -32603`) or compared (`=== -32601`).
          lines.forEach((line, i) => /(?:===|!==|==|!=|code:|case)\s*-32\d{3}\b/.test(line) && offenders.push(`${path}:${i + 1}`));
        }
      }
    };
    walk("src/");
    walk("tools/");
    expect(offenders).toEqual([]);
  });
});
