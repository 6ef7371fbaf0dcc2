/**
 * The real agents `npm run real-agents` scores: npm package, pinned version,
 * the folder (under the install folder) it is installed in, and the command
 * that starts it in ACP mode, relative to that folder.
 */

export interface RealAgent {
  /** Short name used in headings and `--only`. */
  readonly name: string;
  readonly pkg: string;
  readonly version: string;
  /** The command, its first word a path relative to the agent's folder (`node_modules/.bin/x`). */
  readonly command: readonly string[];
  /** `check --timeout` for this agent in seconds, when it needs more than the run's (opencode answers a prompt in 60–65 s offline). */
  readonly timeout?: number;
}

export const AGENTS: readonly RealAgent[] = [
  // The maintained adapters, on SDK 2.4.0 and serving ACP v2 (scored on v2 and, with --protocol 1, on v1).
  { name: "claude-agent-acp-v2", pkg: "@agentclientprotocol/claude-agent-acp", version: "0.101.0", command: ["node_modules/.bin/claude-agent-acp"] },
  { name: "codex-acp-v2", pkg: "@agentclientprotocol/codex-acp", version: "2.6.0", command: ["node_modules/.bin/codex-acp"] },
  { name: "claude-agent-acp", pkg: "@zed-industries/claude-agent-acp", version: "0.23.1", command: ["node_modules/.bin/claude-agent-acp"] },
  { name: "claude-code-acp", pkg: "@zed-industries/claude-code-acp", version: "0.16.2", command: ["node_modules/.bin/claude-code-acp"] },
  { name: "codex-acp", pkg: "@zed-industries/codex-acp", version: "0.16.0", command: ["node_modules/.bin/codex-acp"] },
  { name: "gemini-cli", pkg: "@google/gemini-cli", version: "0.61.0", command: ["node_modules/.bin/gemini", "--acp"] },
  { name: "qwen-code", pkg: "@qwen-code/qwen-code", version: "0.24.4", command: ["node_modules/.bin/qwen", "--acp"] },
  { name: "opencode", pkg: "opencode-ai", version: "1.18.33", command: ["node_modules/.bin/opencode", "acp"], timeout: 150 },
  { name: "copilot", pkg: "@github/copilot", version: "1.0.102", command: ["node_modules/.bin/copilot", "--acp"] },
  { name: "auggie", pkg: "@augmentcode/auggie", version: "0.36.0", command: ["node_modules/.bin/auggie", "--acp"] },
  { name: "pi-acp", pkg: "pi-acp", version: "0.0.34", command: ["node_modules/.bin/pi-acp"] },
  { name: "cursor-agent-acp", pkg: "@blowmage/cursor-agent-acp", version: "0.7.1", command: ["node_modules/.bin/cursor-agent-acp"] },
  { name: "cline", pkg: "cline", version: "3.0.65", command: ["node_modules/.bin/cline", "--acp"] },
  // 7.8.1 (latest) does not install: its postinstall wants @kilocode/cli-linux-x64@7.8.1, which npm does not have; 7.7.7 is the newest with its platform package.
  { name: "kilocode", pkg: "@kilocode/cli", version: "7.7.7", command: ["node_modules/.bin/kilo", "acp"], timeout: 150 },
  { name: "droid", pkg: "droid", version: "0.215.0", command: ["node_modules/.bin/droid", "exec", "--output-format", "acp"] },
  { name: "grok", pkg: "@xai-official/grok", version: "1.0.41", command: ["node_modules/.bin/grok", "agent", "stdio"] },
];

/** The agent's folder name under the install folder: `@scope/name` becomes `scope+name`. */
export const folderOf = (a: RealAgent): string => a.pkg.replace(/^@/, "").replace("/", "+");
