/**
 * Type tests for `ErrorCode`, one name that is both the constant and the
 * schema's type. Never run: `tsc --noEmit` checks them, and
 * test/codegen/type-tests.test.ts proves each `@ts-expect-error` line guards a
 * real error.
 */
import { ErrorCode, type RpcError, type Error as SchemaError, type ErrorObject } from "../../src/index.ts";
import type { ErrorCode as SchemaErrorCode } from "../../src/generated/types.ts";

/** The constant's members are values of the type of the same name. */
export const named: ErrorCode = ErrorCode.MethodNotFound;

/** Any integer an agent defines is an ErrorCode too, as in the schema. */
export const custom: ErrorCode = -32042;

/** The schema's codes (a wire error's `code`) are accepted as they are, and the other way round. */
export function fromSchema(error: SchemaError, code: SchemaErrorCode): [ErrorCode, ErrorCode, SchemaErrorCode] {
  const back: SchemaErrorCode = named;
  return [error.code, code, back];
}

/** A handler can switch on an RpcError's code against the named members. */
export function describeCode(error: RpcError | ErrorObject): string {
  const code: ErrorCode = error.code;
  switch (code) {
    case ErrorCode.AuthRequired:
      return "log in first";
    case ErrorCode.ResourceNotFound:
      return "no such file or session";
    default:
      return `code ${code}`;
  }
}

// @ts-expect-error a code is a number, never a string
export const notANumber: ErrorCode = "-32601";

export function constantIsReadonly(): void {
  // @ts-expect-error the constant's codes cannot be reassigned
  ErrorCode.ParseError = -1;
}

// @ts-expect-error the constant has only the codes listed in DESIGN §8
export const unknownMember = ErrorCode.Timeout;
