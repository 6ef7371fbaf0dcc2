/**
 * The spec's own words for a catalogue entry (docs/conformance-quotes.json, written by scripts/spec-quotes.ts):
 * each sentence its citations point at, with the citation and its source's date. check's text report and the
 * real-peer pages quote them under every fail, so a charge can be held against the words it rests on.
 */
import quotes from "../../docs/conformance-quotes.json" with { type: "json" };

/** One of the spec's sentences: where it is (a docs line, or a schema pointer with the schema it is in), the words, the date. */
export interface SpecWords {
  readonly citation: string;
  readonly text: string;
  readonly date: string;
}

const QUOTES = quotes.quotes as Readonly<Record<string, readonly SpecWords[]>>;

/** The spec's sentences for `id`; empty for an id no catalogue has. */
export const specWords = (id: string): readonly SpecWords[] => QUOTES[id] ?? [];

/** `“…” (citation, date)`: one sentence as a report quotes it. */
export const quoteWords = (w: SpecWords): string => `“${w.text}” (${w.citation}, ${w.date})`;
