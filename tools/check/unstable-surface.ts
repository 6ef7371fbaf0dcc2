/**
 * The rows of `check`'s unstable probes (probes-unstable.ts), by version: the catalogue row each unstable method's
 * probe scores and the capability path under which the agent advertises it, v1's
 * (docs/conformance-catalogue-unstable.json) and v2's (docs/conformance-catalogue-v2-unstable.json).
 */

type Obj = Record<string, unknown>;

/** The catalogue rows of one version's unstable methods, and where its agent advertises them. */
export interface Surface {
  /** The agent's capabilities in the initialize answer. */
  readonly capabilities: (init: Obj) => unknown;
  /** The capability object of the session methods (`sessionCapabilities` in v1, `session` in v2), by its path as evidence names it. */
  readonly session: string;
  readonly fork: string;
  readonly archive: string;
  readonly status: string;
  readonly statusQuiet: string;
  readonly title: string;
  readonly authNoReject: string;
  readonly authStatus: string;
  readonly providers: string;
  /** v1 only: the row of the running turn archived (judged by its prompt's answer). */
  readonly archiveCancels?: string;
  /** The unknown archive filter and the unknown API type. */
  readonly listFilter?: string;
  readonly providersOpen?: string;
  /** v2 only: the running turn archived (n/a when archive is not advertised; otherwise not probed yet), the archived field of listed sessions, and the system prompt rows. */
  readonly archiveCancelsUnprobed?: string;
  readonly listArchived?: string;
  readonly systemPromptRejects?: string;
  readonly systemPromptMode?: string;
  readonly systemPromptText?: string;
}

export const V1_SURFACE: Surface = {
  capabilities: (init) => init.agentCapabilities,
  session: "sessionCapabilities",
  fork: "ACP-SESSION-401",
  archive: "ACP-SESSION-402",
  archiveCancels: "ACP-SESSION-403",
  status: "ACP-SESSION-404",
  statusQuiet: "ACP-SESSION-405",
  title: "ACP-SESSION-406",
  listFilter: "ACP-SESSION-408",
  authNoReject: "ACP-AUTH-401",
  authStatus: "ACP-AUTH-402",
  providers: "ACP-PROVIDERS-401",
  providersOpen: "ACP-PROVIDERS-402",
};

export const V2_SURFACE: Surface = {
  capabilities: (init) => init.capabilities,
  session: "session",
  fork: "ACP-SESSION-501",
  archive: "ACP-SESSION-502",
  status: "ACP-SESSION-504",
  statusQuiet: "ACP-SESSION-505",
  title: "ACP-SESSION-506",
  authNoReject: "ACP-AUTH-501",
  authStatus: "ACP-AUTH-502",
  providers: "ACP-PROVIDERS-501",
  listFilter: "ACP-SESSION-508",
  providersOpen: "ACP-PROVIDERS-502",
  archiveCancelsUnprobed: "ACP-SESSION-503",
  listArchived: "ACP-SESSION-507",
  systemPromptRejects: "ACP-SESSION-517",
  systemPromptMode: "ACP-SESSION-518",
  systemPromptText: "ACP-SESSION-519",
};

/** v2: the row of the subagent announcement order, judged on the traffic so far. */
export const SUBAGENT_ORDER = "ACP-SESSION-513";

const rowsOf = (s: Surface): string[] =>
  [s.fork, s.archive, s.archiveCancels, s.listArchived, s.status, s.statusQuiet, s.title, s.listFilter, s.systemPromptRejects, s.systemPromptMode, s.systemPromptText, s.authNoReject, s.authStatus, s.providers, s.providersOpen].filter((r): r is string => r !== undefined);

/** Every row the v1 probes of this file score. */
export const V1_UNSTABLE_ROWS = [...rowsOf(V1_SURFACE), "ACP-MCP-401", "ACP-MCP-402", "ACP-MCP-406"];
/** Every row the v2 probes of this file score. */
export const V2_UNSTABLE_ROWS = [...rowsOf(V2_SURFACE), SUBAGENT_ORDER];
