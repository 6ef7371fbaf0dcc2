/**
 * The requirement under a fail row on both real-peer pages (real-agents.md, real-clients.md): the catalogue's
 * statement, then the spec's own sentence with its source and date (docs/conformance-quotes.json, written by
 * scripts/spec-quotes.ts from the pinned spec commit and the SDK's schema), so a reader can hold the charge
 * against the words it rests on without opening the spec.
 */
import v1Entries from "../../docs/conformance-catalogue.json" with { type: "json" };
import unstableEntries from "../../docs/conformance-catalogue-unstable.json" with { type: "json" };
import v2Entries from "../../docs/conformance-catalogue-v2.json" with { type: "json" };
import v2UnstableEntries from "../../docs/conformance-catalogue-v2-unstable.json" with { type: "json" };
import { specWords } from "../check/spec-words.ts";
import { citationUrl } from "../inspect/requirements.ts";

/** Every catalogue entry, v1, unstable and v2 (a v2 id is never a v1 id), for the statement and citation of a fail row. */
const CATALOGUE: ReadonlyMap<string, { readonly statement: string; readonly citation: string }> = new Map([...v1Entries, ...unstableEntries, ...v2Entries, ...v2UnstableEntries].map((e) => [e.id, e]));

/** A table cell's text: pipes escaped, one line. */
export const cell = (s: string | undefined): string => (s ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A citation as a link to the pinned spec commit where it is a docs line, as code otherwise (a schema pointer). */
export const citationCell = (citation: string): string =>
  citation
    .split("; ")
    .map((c) => {
      const url = citationUrl(c);
      return url === undefined ? `\`${c}\`` : `[${c}](${url})`;
    })
    .join(", ");

/**
 * The lines under a fail row: `Requirement: <statement>`, then each of the spec's sentences it rests on, quoted
 * with its source and date; empty for an id no catalogue has.
 */
export function requirementLines(id: string): string[] {
  const spec = CATALOGUE.get(id);
  if (spec === undefined) return [];
  const words = specWords(id);
  if (words.length === 0) return [`Requirement: ${cell(spec.statement)} (${citationCell(spec.citation)})`];
  return [`Requirement: ${cell(spec.statement)}`, ...words.map((q) => `The spec's words: “${cell(q.text)}” (${citationCell(q.citation.replace(/ \(.*\)$/, ""))}${/ \((.*)\)$/.exec(q.citation)?.[1] !== undefined ? `, ${/ \((.*)\)$/.exec(q.citation)![1]!}` : ""}, ${q.date})`)];
}
