/**
 * Renders the "The example client" section of docs/real-agents.md from the
 * client runs of scorecard.ts `--client` (client-run.ts): per agent the exit
 * code, the seconds from the client's last printed step to its exit, whether
 * it showed the agent's authentication methods where the agent required
 * authentication, and the processes left.
 */
import type { ClientRun } from "./client-run.ts";

/** A table-safe cell: terminal colour codes removed, pipes escaped, one line. */
const cell = (s: string) =>
  s
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");

/** The section's lines; none when there are no client runs. */
export function clientSection(runs: readonly ClientRun[]): string[] {
  if (runs.length === 0) return [];
  const out = [
    "## The example client",
    "",
    '`examples/client.ts --tour --cwd <tmp> --agent "<agent command>"` on each agent, offline like the check runs (`unshare -n`, `HOME` an empty temporary folder), bounded per agent (`npm run real-agents -- INSTALL_DIR --client`). *After last step* is the time from the last line the client printed before its "Agent …" exit note to its exit; issue 20 asks for at most 10 s. *Auth methods shown* applies when the agent required authentication. *Processes left* counts the run\'s processes (its session, or naming the agent\'s folder) still running after the client exited; any found are ended by process group.',
    "",
    "| agent | exit | after last step (s) | total (s) | auth required | auth methods shown | processes left |",
    "|---|---:|---:|---:|---|---|---:|",
  ];
  for (const r of runs) {
    const noneOffered = r.tail.includes("the agent offered no authentication method");
    const auth = r.authRequired ? (r.authShown ? `yes: ${r.methods.join(", ")}` : noneOffered ? "the agent offers none; the client says so" : "**no**") : r.authShown ? `listed: ${r.methods.join(", ")}` : "n/a";
    const exit = r.timedOut ? `**${String(r.exit)} (ended at the bound)**` : r.exit === 0 ? "0" : `${String(r.exit)}`;
    const after = r.afterLastStep > 10 ? `**${r.afterLastStep.toFixed(1)}**` : r.afterLastStep.toFixed(1);
    out.push(`| ${r.agent.pkg}@${r.agent.version} | ${exit} | ${after} | ${r.seconds.toFixed(0)} | ${r.authRequired ? "yes" : "no"} | ${auth} | ${r.left.length === 0 ? "0" : `**${r.left.length}**`} |`);
  }
  out.push("", "The client's last lines per agent:", "");
  for (const r of runs)
    out.push(
      `- **${r.agent.name}**: ${cell(
        r.tail
          .split("\n")
          .filter((l) => l.trim() !== "")
          .slice(-3)
          .join(" / "),
      )}`,
    );
  out.push("");
  return out;
}
