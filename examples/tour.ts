/**
 * The scripted tour of `npm run demo`: a hello, a file read that needs
 * permission, a plan, a mode switch, and a slow prompt cancelled after a
 * second. Written for the example agent; other agents just answer the same
 * prompts their own way.
 */
import { join } from "node:path";
import type { ClientSession } from "./client-session.ts";

/** When the tour sends `session/cancel` for the slow prompt. */
export const TOUR_CANCEL_AFTER_MS = 1000;

/** Runs the tour in `session`; `file` is an absolute path inside the session's cwd that the agent reads. */
export async function runTour(session: ClientSession, file = join(session.cwd, "package.json")): Promise<void> {
  const step = (title: string) => session.transcript.note(`\n== ${title}`);

  step("1. Streaming: the agent echoes a prompt in chunks");
  await session.prompt("hello from the acp-router tour");

  step("2. A tool call: the agent asks permission, then reads a file through the client (fs/read_text_file)");
  await session.prompt(`read ${file}`);

  step("3. A plan whose entries move from pending to completed");
  await session.prompt("plan a small change");

  step("4. Modes: switch the session from ask to code");
  await session.setMode("code");

  step(`5. Cancellation: a ten-second prompt, cancelled after ${TOUR_CANCEL_AFTER_MS / 1000} s with session/cancel`);
  await session.prompt("slow count to a hundred", { cancelAfterMs: TOUR_CANCEL_AFTER_MS });
}
