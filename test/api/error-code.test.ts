// ErrorCode is one name for the constant and the schema's type; this checks the constant's values
// (the type side is checked by tsc in test/types/error-code.ts).
import { describe, expect, it } from "vitest";
import { ErrorCode, RpcError } from "../../src/index.ts";

describe("ErrorCode", () => {
  it("lists the codes of DESIGN §8 under their names", () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      RequestCancelled: -32800,
      AuthRequired: -32000,
      ResourceNotFound: -32002,
    });
  });

  it("is the code RpcError's constructors answer with", () => {
    const codes: ErrorCode[] = [RpcError.parseError().code, RpcError.methodNotFound("x").code, RpcError.authRequired().code, RpcError.resourceNotFound().code];
    expect(codes).toEqual([ErrorCode.ParseError, ErrorCode.MethodNotFound, ErrorCode.AuthRequired, ErrorCode.ResourceNotFound]);
  });
});
