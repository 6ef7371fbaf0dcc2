/**
 * Emits `errors.ts`: the error codes the table's schema defines
 * (`$defs.ErrorCode`, one `const` per named code), as one `as const` object
 * and a type of the same name, so each entry exports exactly its schema's
 * codes (v1: eight; v2 adds `-32022`). Imports nothing.
 */
import type { AcpSchema } from "./schema.ts";
import { lit, pascal } from "./names.ts";
import { DEFAULT_PRINTER, type Printer } from "./symbols.ts";

/** acp-router's established names where the schema's title would read differently. */
const NAMES: Readonly<Record<string, string>> = { "Authentication required": "AuthRequired" };

/** One named code of the schema: its title (`"Parse error"`), member name and value. */
export interface SchemaErrorCode {
  readonly title: string;
  readonly name: string;
  readonly code: number;
  /** The first line of the schema's description, or the title. */
  readonly doc: string;
}

/** The named codes of `schema`'s `$defs.ErrorCode`, in schema order; none when the schema defines no `ErrorCode`. */
export function schemaErrorCodes(schema: AcpSchema): SchemaErrorCode[] {
  const variants = (schema.$defs.ErrorCode?.anyOf ?? []) as { title?: unknown; const?: unknown; description?: unknown }[];
  const codes: SchemaErrorCode[] = [];
  for (const v of variants) {
    if (typeof v.const !== "number" || typeof v.title !== "string") continue;
    const line = typeof v.description === "string" ? (v.description.split("\n")[0] ?? "") : "";
    const doc = (line.trim() === "" ? `${v.title}.` : line.trim()).replaceAll("*/", "* /");
    codes.push({ title: v.title, name: NAMES[v.title] ?? pascal(v.title), code: v.const, doc });
  }
  return codes;
}

/** The generated `errors.ts` of a table whose schema is `schema`. */
export function emitErrors(schema: AcpSchema, p: Printer = DEFAULT_PRINTER): string {
  const out = [p.header, "", "/**", " * The error codes this table's schema defines (`$defs.ErrorCode`), by name.", " * `ErrorCode` is also a type: one of these codes, or any other integer an", " * agent or extension defines, as the schema types it.", " */", "export const ErrorCode = {"];
  for (const c of schemaErrorCodes(schema)) out.push(`  /** ${c.doc} */`, `  ${c.name}: ${lit(c.code)},`);
  out.push(
    "} as const;",
    "",
    "/** One of the values of {@link ErrorCode}. */",
    "export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];",
    "",
    "/** An error code: one named above, or any other integer (`(number & {})` keeps the names visible to completion). */",
    "export type ErrorCode = ErrorCodeValue | (number & {});",
    "",
  );
  return out.join("\n");
}
