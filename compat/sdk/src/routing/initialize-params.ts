/**
 * The `initialize` params a version router hands the implementation it chose, as SDK 2.4.0's
 * router writes them: for the version the client asked for, its params as they are (the
 * implementation judges them); for a newer version than the chosen one, what can be read of them
 * in the chosen version's terms — a v2 `initialize` read as v2 (a missing or malformed `info`
 * becomes `{ name: "unknown", version: "unknown" }`), or turned into a v1 one (`clientInfo` from a
 * well-formed `info`, the v2 client capabilities as v1's: no file system, no terminal, boolean
 * config options, plans, `auth.terminal` as a boolean, elicitation and `_meta` kept). Members
 * that are null or undefined, and empty arrays, are left out, as the SDK's canonical form does.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` when it is an object (a `_meta`), else undefined. */
const meta = (value: unknown): Json | undefined => (isObject(value) ? value : undefined);

/** An object holding only `_meta` (form and URL elicitation, terminal auth), or undefined when `value` is not an object. */
const metaOnly = (value: unknown): Json | undefined => (isObject(value) ? { _meta: meta(value["_meta"]) } : undefined);

/** A v2 `Implementation` (`name`, `version`, optional `title` and `_meta`), or undefined when `value` is not one. */
function implementation(value: unknown): Json | undefined {
  if (!isObject(value) || typeof value["name"] !== "string" || typeof value["version"] !== "string") return undefined;
  return { name: value["name"], title: typeof value["title"] === "string" ? value["title"] : undefined, version: value["version"], _meta: meta(value["_meta"]) };
}

/** v2 client capabilities (`auth`, `elicitation`, `_meta`), what is malformed dropped. */
function v2Capabilities(value: unknown): Json {
  if (!isObject(value)) return {};
  const auth = isObject(value["auth"]) ? { terminal: metaOnly(value["auth"]["terminal"]), _meta: meta(value["auth"]["_meta"]) } : undefined;
  const raw = value["elicitation"];
  const elicitation = isObject(raw) ? { form: metaOnly(raw["form"]), url: metaOnly(raw["url"]), _meta: meta(raw["_meta"]) } : undefined;
  return { auth, elicitation, _meta: meta(value["_meta"]) };
}

/** The canonical form: null and undefined members and empty arrays left out, nested objects too (`_meta` kept as it is). */
function canonical(value: Json): Json {
  const result: Json = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue;
    if (key === "_meta") result[key] = member;
    else if (Array.isArray(member)) {
      if (member.length > 0) result[key] = member.map((item) => (isObject(item) ? canonical(item) : item));
    } else result[key] = isObject(member) ? canonical(member) : member;
  }
  return result;
}

/** A v2 `initialize`'s params read as v2 for a newer version than 2: what is malformed dropped, `info` made up when it is not one. */
function readNewerV2(params: Json): { info: Json | undefined; capabilities: Json; meta: Json | undefined } {
  return { info: implementation(params["info"]), capabilities: v2Capabilities(params["capabilities"]), meta: meta(params["_meta"]) };
}

/** The params of the `initialize` handed to the chosen implementation (see the module comment). */
export function initializeParamsFor(params: Json, requested: number, selected: 1 | 2): Json {
  if (requested === selected) return canonical({ ...params, protocolVersion: selected });
  if (selected === 2) {
    const read = readNewerV2(params);
    return canonical({ protocolVersion: 2, info: read.info ?? { name: "unknown", version: "unknown" }, capabilities: read.capabilities, _meta: read.meta });
  }
  if (requested < 2) return canonical({ ...params, protocolVersion: 1 });
  const read = readNewerV2(params);
  const auth = read.capabilities["auth"] as Json | undefined;
  const clientCapabilities: Json = {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    session: { configOptions: { boolean: {} } },
    plan: {},
    // v1 says terminal auth with a boolean: its `_meta` has nowhere to go.
    auth: { terminal: auth?.["terminal"] !== undefined, ...(auth?.["_meta"] === undefined ? {} : { _meta: auth["_meta"] }) },
    elicitation: read.capabilities["elicitation"],
    _meta: read.capabilities["_meta"],
  };
  return canonical({ protocolVersion: 1, clientCapabilities, clientInfo: read.info, _meta: read.meta });
}
