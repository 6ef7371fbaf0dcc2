/**
 * What the capabilities run of `check` showed, judged: tool calls, plans,
 * paths and line numbers, the session cwd, terminals and elicitations. A
 * feature the agent never showed makes its rows n/a with that reason.
 */
import { isAbsolute, join } from "node:path";
import { quoteText, type Run, show, quote } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { EXERCISES, RELATIVE_FILE, type Seen } from "./capabilities-exercises.ts";
import { isObj, paramsOf, requestsOf, updatesOf } from "./depth-kit.ts";

/** Tool calls, plans, paths, terminals and elicitations as the capabilities run showed them. */
export function judgeCapabilities(run: Run, seen: Seen, cwd: string): void {
  const { card } = run;
  const lines = seen.lines;
  const tools = updatesOf(lines, "tool_call");
  const toolUpdates = updatesOf(lines, "tool_call_update");
  card.score("ACP-TOOL-101", tools.length > 0 ? pass : na("the agent reported no tool call in answer to the exercise prompts"));
  if (seen.allowed.length === 0) card.score("ACP-TOOL-102", na("the agent asked no permission that check's client allowed"));
  else {
    const notRun = seen.allowed.filter((a) => !toolUpdates.some((u) => u.update.toolCallId === a.toolCallId && u.update.status === "in_progress" && u.line.t >= a.at));
    card.score("ACP-TOOL-102", notRun.length === 0 ? pass : fail(`tool call ${show(notRun[0]!.toolCallId)} was permitted but never reported in_progress`));
  }
  const plans = updatesOf(lines, "plan");
  card.score("ACP-PLAN-101", plans.length > 0 ? pass : na("the agent reported no plan in answer to the exercise prompts"));
  card.score("ACP-PLAN-102", plans.length > 1 ? pass : na(plans.length === 0 ? "the agent reported no plan" : "one plan update only: no progress to report"));
  const badPlan = plans.find((p) => !Array.isArray(p.update.entries) || !(p.update.entries as unknown[]).every((e) => isObj(e) && typeof e.content === "string" && typeof e.status === "string" && typeof e.priority === "string"));
  card.score("ACP-PLAN-103", plans.length === 0 ? na("the agent reported no plan") : badPlan === undefined ? pass : fail(`a plan update without the complete entries (content, priority, status each): ${quote(run.d, badPlan.line)}`));

  // Paths and lines the agent sent: fs requests, terminal cwds, tool call locations.
  const fs = requestsOf(lines, "fs/");
  const creates = requestsOf(lines, "terminal/create");
  const locations = [...tools, ...toolUpdates].flatMap((u) => (Array.isArray(u.update.locations) ? u.update.locations.filter(isObj) : []));
  const paths = [...fs.map((l) => paramsOf(l).path), ...creates.map((l) => paramsOf(l).cwd).filter((c) => c !== undefined && c !== null), ...locations.map((x) => x.path)];
  card.score(
    "ACP-PATH-101",
    paths.length === 0 ? na("the agent sent no path (no fs request, terminal cwd or tool call location)") : paths.every((p) => typeof p === "string" && isAbsolute(p)) ? pass : fail(`the agent sent the path ${show(paths.find((p) => typeof p !== "string" || !isAbsolute(p)))}, not absolute`),
  );
  const numbers = [...fs.map((l) => paramsOf(l).line), ...locations.map((x) => x.line)].filter((n) => n !== undefined && n !== null);
  card.score("ACP-PATH-102", numbers.length === 0 ? na("the agent sent no line number") : numbers.every((n) => Number.isInteger(n) && (n as number) >= 1) ? pass : fail(`the agent sent the line number ${show(numbers.find((n) => !Number.isInteger(n) || (n as number) < 1))} (lines are 1-based)`));
  const touched = [...fs.map((l) => paramsOf(l).path), ...creates.map((l) => paramsOf(l).cwd).filter((c) => c !== undefined && c !== null)];
  const outside = touched.filter((p) => typeof p === "string" && isAbsolute(p) && !(p === cwd || p.startsWith(`${cwd}/`)));
  const spawnDir = process.cwd();
  const inSpawnDir = touched.filter((p) => typeof p === "string" && (p === spawnDir || p.startsWith(`${spawnDir}/`)) && !(p === cwd || p.startsWith(`${cwd}/`)));
  card.score("ACP-SESSION-104", touched.length === 0 ? na("the agent made no file-system call and created no terminal") : inSpawnDir.length === 0 ? pass : fail(`the session's cwd was ${cwd}, but the agent reached ${show(inSpawnDir[0])} in the folder it was started in`));
  const relative = fs.map((l) => paramsOf(l).path).filter((p) => typeof p === "string" && p.endsWith(`/${RELATIVE_FILE}`));
  card.score(
    "ACP-SESSION-105",
    relative.length === 0
      ? na(`the agent resolved no relative path (no fs request for ${RELATIVE_FILE}, which the # directives name relative to the session cwd)`)
      : relative.every((p) => p === join(cwd, RELATIVE_FILE))
        ? pass
        : fail(`${RELATIVE_FILE}, relative to the session cwd ${cwd}, was resolved to ${show(relative.find((p) => p !== join(cwd, RELATIVE_FILE)))}`),
  );
  card.score("ACP-SESSION-107", touched.length === 0 ? na("the agent made no file-system call and created no terminal") : outside.length === 0 ? pass : fail(`the agent reached ${show(outside[0])}, outside the session's roots (${cwd})`));

  card.score(
    "ACP-TERM-102",
    creates.length === 0
      ? na("the agent created no terminal")
      : creates.every((l) => paramsOf(l).cwd == null || (typeof paramsOf(l).cwd === "string" && isAbsolute(paramsOf(l).cwd as string)))
        ? pass
        : fail(`terminal/create with a cwd that is not absolute: ${creates.find((l) => typeof paramsOf(l).cwd === "string" && !isAbsolute(paramsOf(l).cwd as string))?.text.slice(0, 160)}`),
  );
  const released = new Set(requestsOf(lines, "terminal/release").map((l) => paramsOf(l).terminalId));
  const unreleased = seen.terminals.filter((t) => !released.has(t));
  card.score("ACP-TERM-104", seen.terminals.length === 0 ? na("the agent created no terminal") : unreleased.length === 0 ? pass : fail(`terminal ${unreleased[0]} was never released`));
  const kills = requestsOf(lines, "terminal/kill");
  const killedUnreleased = kills.filter((k) => !requestsOf(lines.slice(lines.indexOf(k)), "terminal/release").some((r) => paramsOf(r).terminalId === paramsOf(k).terminalId));
  card.score("ACP-TERM-105", kills.length === 0 ? na("the agent killed no terminal") : killedUnreleased.length === 0 ? pass : fail(`terminal ${show(paramsOf(killedUnreleased[0]!).terminalId)} was killed but never released`));

  // Elicitations.
  const elicits = requestsOf(lines, "elicitation/create");
  const none = na("the agent sent no elicitation in answer to the exercise prompts");
  if (elicits.length === 0) {
    card.all(["ACP-ELICIT-116", "ACP-ELICIT-117", "ACP-ELICIT-119", "ACP-ELICIT-122", "ACP-ELICIT-123"], none);
    return;
  }
  card.score("ACP-ELICIT-116", seen.results + seen.errors === EXERCISES.length ? pass : fail("after check's client declined an elicitation, a turn was left unanswered"));
  const urls = elicits.filter((l) => paramsOf(l).mode === "url");
  const urlIds = urls.map((l) => paramsOf(l).elicitationId);
  card.score("ACP-ELICIT-117", urls.length === 0 ? na("no URL-mode elicitation") : new Set(urlIds).size === urlIds.length ? pass : fail(`URL elicitations reuse an elicitationId: ${show(urlIds)}`));
  const completes = requestsOf(lines, "elicitation/complete").concat(lines.filter((l) => l.body?.method === "elicitation/complete" && l.body.id === undefined));
  card.score("ACP-ELICIT-119", completes.length === 0 ? na("the agent sent no elicitation/complete") : completes.every((c) => urlIds.includes(paramsOf(c).elicitationId)) ? pass : fail(`elicitation/complete for an elicitationId check's client never got: ${quote(run.d, completes[0]!)}`));
  const insecure = urls.filter((l) => typeof paramsOf(l).url === "string" && !/^https:|^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(paramsOf(l).url as string));
  card.score("ACP-ELICIT-122", urls.length === 0 ? na("no URL-mode elicitation") : insecure.length === 0 ? pass : fail(`a URL elicitation to ${show(paramsOf(insecure[0]!).url)}, not HTTPS`));
  const forms = elicits.filter((l) => paramsOf(l).mode !== "url");
  const linked = forms.find((l) => /https?:\/\//.test(JSON.stringify(paramsOf(l).requestedSchema ?? {})));
  card.score("ACP-ELICIT-123", forms.length === 0 ? na("no form-mode elicitation") : linked === undefined ? pass : fail(`a form elicitation carries a URL in its fields: ${quote(run.d, linked)}`));
}
