#!/usr/bin/env node
/**
 * The `acp-router` command: `acp-router <subcommand> [args]`.
 *
 * - `codegen --table FILE --out DIR [--check]`: generate a typed router from a method table.
 * - `inspect [options] -- <agent command…>`: a checking stdio proxy between an editor and an agent
 *   (`inspect report`, `inspect replay`: see tools/inspect/main.ts).
 * - `check [options] -- <agent command…>`: black-box conformance of an agent
 *   (`check --client -- <client command…>`: of a client, see tools/check-client/main.ts).
 * - `mock-agent [--listen HOST:PORT] [--protocol 1|2|negotiate] [--script FILE]`: a deterministic test agent for clients.
 * - `conduct [--proxy-module FILE] -- <proxy…> -- <agent…>`: run an ACP proxy chain as one agent, proxies in
 *   processes of their own or hosted in the conductor's (tools/conduct/main.ts).
 *
 * - `--version`: the package version, on stdout.
 *
 * Every subcommand takes `--help` (exit 0). Subcommands load lazily, so one subcommand's optional dependencies never
 * stop another. Messages go to stderr; stdout is left to the protocol.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The generator's own packages: optional peer dependencies of acp-router, needed only by `codegen`. */
const GENERATOR_PACKAGES = ["ts-morph@28.0.0", "ajv@8.20.0", "json-schema-to-typescript@16.0.0"] as const;

const USAGE = `usage: acp-router <command> [args]        (acp-router <command> --help for its options)
       acp-router --version

commands:
  codegen --table FILE --out DIR [--check]   generate a typed router from a method table
  inspect [options] -- <agent command...>    proxy an agent over stdio and check its traffic
  inspect report TRACE.ndjson -o REPORT.html write a self-contained HTML report of a recording (or a Rust conductor trace)
  inspect replay TRACE.ndjson -- <agent...>  replay a recording's (or Rust trace's) client side against an agent
  check [options] -- <agent command...>      score an agent against the ACP requirements (check --help)
  check --client -- <client command...>     score a client: {agent} in its command is an agent run by check
  mock-agent [--listen HOST:PORT] [--protocol 1|2|negotiate] [--script FILE]
                                             a deterministic agent for testing clients (mock-agent --help)
  conduct [--proxy-module FILE] -- <proxy...> [-- <proxy...>] -- <agent...>
                                             run a proxy chain as one agent (conduct --help)
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "codegen": {
      if (rest.includes("--help") || rest.includes("-h")) {
        const { CODEGEN_HELP } = await import("../codegen/help.ts");
        process.stderr.write(CODEGEN_HELP);
        return 0;
      }
      const missing = await missingPackages(GENERATOR_PACKAGES);
      if (missing.length > 0) {
        process.stderr.write(`acp-router codegen needs ${missing.join(", ")}: npm install --save-dev ${missing.join(" ")}\n`);
        return 2;
      }
      const { codegenMain } = await import("../codegen/cli.ts");
      return codegenMain(rest);
    }
    case "inspect": {
      const { inspectMain } = await import("../tools/inspect/main.ts");
      return inspectMain(rest);
    }
    case "check": {
      const { checkMain } = await import("../tools/check/main.ts");
      return checkMain(rest);
    }
    case "mock-agent": {
      const { mockAgentMain } = await import("../tools/mock-agent/main.ts");
      return mockAgentMain(rest);
    }
    case "conduct": {
      const { conductMain } = await import("../tools/conduct/main.ts");
      return conductMain(rest);
    }
    case "--version":
    case "-v":
    case "version":
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stderr.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`acp-router: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/** The version in acp-router's package.json: the nearest one above this file (bin/ from a checkout, dist/bin/ once built). */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "acp-router" && typeof pkg.version === "string") return pkg.version;
    }
    if (dirname(dir) === dir) return "unknown";
  }
}

/** The `name@version` entries whose package cannot be imported from here. */
async function missingPackages(packages: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const entry of packages) {
    const name = entry.slice(0, entry.lastIndexOf("@"));
    try {
      await import(name);
    } catch {
      missing.push(entry);
    }
  }
  return missing;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`acp-router: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
