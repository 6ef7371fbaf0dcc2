// Every command of the acp-router bin explains itself: `--version` prints the package's version,
// and `--help` on each subcommand prints its usage and exits 0, before anything else runs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { acpRouter, runCommand } from "./support.ts";

const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("the acp-router bin", () => {
  it("prints the package version with --version, on stdout", async () => {
    const ran = await runCommand(acpRouter("--version"));
    expect({ code: ran.code, stdout: ran.stdout.toString(), stderr: ran.stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it.each([
    [["help"], "usage: acp-router <command> [args]"],
    [["codegen", "--help"], "usage: acp-router codegen --table FILE --out DIR [--check] [--runtime SPECIFIER]"],
    [["inspect", "--help"], "usage: acp-router inspect [--log FILE|-]"],
    [["inspect", "report", "--help"], "usage: acp-router inspect report <trace.ndjson|trace.jsons> -o <report.html>"],
    [["inspect", "replay", "--help"], "usage: acp-router inspect replay <trace.ndjson|trace.jsons>"],
    [["check", "--help"], "usage: acp-router check [options] -- <agent command...>"],
    [["mock-agent", "--help"], "usage: acp-router mock-agent [--listen HOST:PORT]"],
    [["conduct", "--help"], "usage: acp-router conduct [options] [--proxy-module FILE]… -- <proxy command…>"],
  ])(
    "%j prints its usage and exits 0",
    async (args, usage) => {
      const ran = await runCommand(acpRouter(...args));
      expect(ran.code).toBe(0);
      expect(`${ran.stdout.toString()}${ran.stderr}`).toContain(usage);
    },
    30_000,
  );

  it("documents --runtime in codegen's help", async () => {
    const ran = await runCommand(acpRouter("codegen", "--help"));
    expect(ran.stderr).toContain("  --runtime SPECIFIER   the module the generated files import the runtime from");
    expect(ran.stdout.toString()).toBe("");
  });
});
