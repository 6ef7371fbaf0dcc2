/**
 * The scripted tour of `npm run demo`: a hello, a file read that needs
 * permission, a plan, a mode switch, a config change, a slow prompt cancelled
 * after a second, then listing the sessions, loading this one again (its
 * history replayed) and closing it. The prompts suit the example agent,
 * the titles describe what the client sends (not what an agent will do
 * with it), and it adapts to any agent: a step that needs something the agent did not
 * advertise (modes, config options, `session/list`, `session/load`,
 * `session/close`) is skipped, and the transcript says why. Other agents
 * answer the prompts their own way.
 */
import { join } from "node:path";
import { RpcError, type AgentCapabilities, type SessionConfigOption, type SessionModeState } from "../src/index.ts";
import type { ClientConnection as UnstableConnection } from "../src/unstable/index.ts";
import type { ClientSession } from "./client-session.ts";

/** When the tour sends `session/cancel` for the slow prompt. */
export const TOUR_CANCEL_AFTER_MS = 1000;

/** What the agent advertised: `initialize`'s capabilities and `session/new`'s modes and config options. */
export interface AgentFeatures {
  readonly capabilities?: AgentCapabilities | null | undefined;
  readonly modes?: SessionModeState | null | undefined;
  readonly configOptions?: readonly SessionConfigOption[] | null | undefined;
  /** `session/new`'s `models`, as some agents still send it (not in the pinned schema). */
  readonly models?: { readonly currentModelId?: string; readonly availableModels?: readonly { readonly modelId: string }[] } | null | undefined;
  /** The same connection typed by the unstable table (`acp-router/unstable`), for `session/fork`. */
  readonly unstable?: UnstableConnection | undefined;
}

/** How the tour went: the titles of the steps it ran, and of those it skipped with the reason. */
export interface TourReport {
  readonly ran: readonly string[];
  readonly skipped: readonly { readonly step: string; readonly why: string }[];
}

/** One step: its title, and either why it cannot run or what it does. */
type Step = { readonly title: string } & ({ readonly skip: string } | { readonly run: () => Promise<void> });

/**
 * Runs the tour in `session`; `file` is an absolute path inside the session's
 * cwd that the agent reads. A step that fails with an `RpcError` (an error
 * answer, or a timeout) is reported and the tour goes on; a closed connection
 * ends it.
 */
export async function runTour(session: ClientSession, features: AgentFeatures = {}, file = join(session.cwd, "package.json")): Promise<TourReport> {
  const { transcript } = session;
  const sessions = features.capabilities?.sessionCapabilities;
  const ran: string[] = [];
  const skipped: { step: string; why: string }[] = [];
  const steps: Step[] = [
    { title: "A first prompt: a greeting, its answer streamed", run: () => prompt("hello from the acp-router tour") },
    { title: "A prompt about a file in the session's directory (the agent may ask permission and read it through fs/read_text_file)", run: () => prompt(`read ${file}`) },
    { title: "A prompt asking for a plan", run: () => prompt("plan a small change") },
    modeStep(session, features.modes),
    configStep(session, features.configOptions),
    {
      title: `Cancellation: a long prompt, cancelled after ${TOUR_CANCEL_AFTER_MS / 1000} s with session/cancel`,
      run: () => prompt("slow count to a hundred", TOUR_CANCEL_AFTER_MS),
    },
    sessions?.list
      ? {
          title: "Listing the sessions in this directory (session/list)",
          run: async () => {
            transcript.user("/list");
            const { sessions: found } = await session.conn.agent.listSessions({ cwd: session.cwd });
            for (const s of found) transcript.note(`  ${s.sessionId}${s.sessionId === session.sessionId ? " (this one)" : ""}: ${s.title ?? "(untitled)"}`);
            transcript.note(`  ${found.length} session${found.length === 1 ? "" : "s"}`);
          },
        }
      : { title: "Listing sessions", skip: "the agent does not advertise session/list" },
    features.capabilities?.loadSession
      ? {
          title: "Loading this session again (session/load), its history replayed",
          run: async () => transcript.note(`  the agent replayed ${await session.load()} updates`),
        }
      : { title: "Loading the session", skip: "the agent does not advertise session/load" },
    sessions?.resume
      ? {
          title: "Resuming this session (session/resume)",
          run: async () => {
            transcript.user("/resume");
            await session.conn.agent.resumeSession({ sessionId: session.sessionId, cwd: session.cwd, mcpServers: [] });
            transcript.note("  resumed");
          },
        }
      : { title: "Resuming the session", skip: "the agent does not advertise session/resume" },
    forkStep(session, features),
    modelStep(features.models),
    sessions?.close ? { title: "Closing the session (session/close)", run: () => session.close().then(() => transcript.note("  closed")) } : { title: "Closing the session", skip: "the agent does not advertise session/close" },
  ];

  for (const [i, step] of steps.entries()) {
    const title = `${i + 1}. ${step.title}`;
    if ("skip" in step) {
      transcript.note(`\n== ${title}: skipped, ${step.skip}`);
      skipped.push({ step: title, why: step.skip });
      continue;
    }
    transcript.note(`\n== ${title}`);
    try {
      await step.run();
      ran.push(title);
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      // An error answer, or no answer within the connection's requestTimeoutMs.
      transcript.note(`  failed (${error.code} ${error.message}); going on`);
      skipped.push({ step: title, why: `failed (${error.code} ${error.message})` });
    }
  }
  transcript.note(`\nTour done: ${ran.length} steps ran${skipped.length > 0 ? `; skipped: ${skipped.map((s) => s.step.split(".")[0]).join(", ")}` : ""}.`);
  return { ran, skipped };

  async function prompt(text: string, cancelAfterMs?: number): Promise<void> {
    await session.prompt(text, cancelAfterMs === undefined ? {} : { cancelAfterMs });
  }
}

/** Forks the session through the unstable table when the agent advertises `sessionCapabilities.fork`. */
function forkStep(session: ClientSession, features: AgentFeatures): Step {
  const conn = features.unstable;
  // `fork` is an unstable capability: the v1 stable type does not name it.
  const advertised = (features.capabilities?.sessionCapabilities as { readonly fork?: unknown } | null | undefined)?.fork;
  if (!conn || !advertised) return { title: "Forking the session", skip: "the agent does not advertise session/fork (unstable)" };
  return {
    title: "Forking this session (unstable session/fork, through acp-router/unstable)",
    run: async () => {
      session.transcript.user("/fork");
      const { sessionId } = await conn.agent.forkSession({ sessionId: session.sessionId, cwd: session.cwd, mcpServers: [] });
      session.transcript.note(`  forked as ${sessionId}`);
    },
  };
}

/**
 * Shows the models an agent offered. `session/set_model` is in neither the
 * stable nor the unstable table of the pinned schema (models are config
 * options there, which the config step covers), so the tour does not switch.
 */
function modelStep(models: AgentFeatures["models"]): Step {
  if (!models?.currentModelId) return { title: "Models", skip: "the agent offered no models" };
  const ids = (models.availableModels ?? []).map((m) => m.modelId).join(", ");
  return { title: "Models", skip: `the agent offers ${ids} (current ${models.currentModelId}); session/set_model is not in the pinned ACP schema, so the tour does not call it` };
}

/** Switches to the first advertised mode that is not the current one. */
function modeStep(session: ClientSession, modes: SessionModeState | null | undefined): Step {
  const target = modes?.availableModes.find((m) => m.id !== modes.currentModeId);
  if (!modes) return { title: "Modes", skip: "the agent advertised no session modes" };
  if (!target) return { title: "Modes", skip: `the agent advertised only the mode ${modes.currentModeId}` };
  return { title: `Modes: switch the session from ${modes.currentModeId} to ${target.id}`, run: () => session.setMode(target.id) };
}

/** Changes the first config option that has another value to take. */
function configStep(session: ClientSession, options: readonly SessionConfigOption[] | null | undefined): Step {
  if (!options || options.length === 0) return { title: "Config options", skip: "the agent advertised no config options" };
  for (const option of options) {
    const value = otherValue(option);
    if (value === undefined) continue;
    return {
      title: `Config options: set ${option.name} to ${String(value)}`,
      run: async () => {
        const now = (await session.setConfigOption(option.id, value)).find((o) => o.id === option.id);
        session.transcript.note(`  ${option.name} is now ${String(now?.currentValue ?? "(not reported)")}`);
      },
    };
  }
  return { title: "Config options", skip: "no advertised config option has another value to take" };
}

/** A value of `option` other than its current one, if any. */
function otherValue(option: SessionConfigOption): string | boolean | undefined {
  if (option.type === "boolean") return !option.currentValue;
  if (option.type !== "select") return undefined;
  const values = option.options.flatMap((o) => ("group" in o ? o.options.map((v) => v.value) : [o.value]));
  return values.find((v) => v !== option.currentValue);
}
