/**
 * The runtime's list of error codes by name. `src/errors.ts` re-exports it
 * with the constructors that use it.
 */

/**
 * Every error code the runtime writes, by name: JSON-RPC 2.0's, ACP's, and
 * `UnsupportedProtocolVersion`, which only the v2 schema defines (the version
 * router answers it). Each table's public list — exactly the codes of its
 * schema's `$defs.ErrorCode` — is the `ErrorCode` of its generated
 * `errors.ts`, which its entry exports (`acp-router`: the v1 list;
 * `acp-router/v2`: v2's, with `-32022`); a test checks every generated list
 * against this one.
 */
export const ErrorCode = {
  /** Invalid JSON, or a line over `maxMessageBytes`. */
  ParseError: -32700,
  /** Not a valid request object (envelope), or a request before `initialize`. */
  InvalidRequest: -32600,
  /** Unknown method, or one gated by a capability that was not advertised. */
  MethodNotFound: -32601,
  /** Params failed schema validation. */
  InvalidParams: -32602,
  /** The handler failed; details are not sent unless `exposeErrors` is on. */
  InternalError: -32603,
  /** The request was cancelled (`$/cancel_request`). */
  RequestCancelled: -32800,
  /** Authentication is required before this method. */
  AuthRequired: -32000,
  /** A resource (file, session) was not found. */
  ResourceNotFound: -32002,
  /** v2 only: no version the agent supports is at or below the one requested. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the values of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * An error code as the ACP schema types it (its `ErrorCode`): one of the
 * codes above, or any other integer an agent or extension defines. The named
 * codes stay visible to editors' completion; `(number & {})` only stops them
 * from collapsing into `number`. Declared under the constant's name, so one
 * import serves `ErrorCode.MethodNotFound` and `code: ErrorCode`.
 */
export type ErrorCode = ErrorCodeValue | (number & {});
