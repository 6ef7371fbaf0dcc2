/**
 * The help text of `acp-router codegen`, kept apart from the generator so
 * `--help` works before the generator's packages are installed.
 */
export const CODEGEN_HELP = `usage: acp-router codegen --table FILE --out DIR [--check] [--runtime SPECIFIER] [--base DIR]

Generate a typed router from a method table: decoders, dispatch, handler
interfaces and typed peers, one folder exporting protocol, agentProtocol and
clientProtocol. Run it again after every table edit and commit the folder.

options:
  --table FILE          the table module: exports methods (MethodRow[]) and schemaSource
                        (spread acp-router/table's methods and add your rows)
  --out DIR             the folder to write; it is deleted and written anew, so keep
                        nothing else in it
  --check               write nothing; exit 1 and name the stale files when DIR does not
                        match the table (for CI)
  --runtime SPECIFIER   the module the generated files import the runtime from
                        (default acp-router/runtime; name your own re-export of it)
  --base DIR            for a table that extends another (it exports base, the other
                        table, on the same schema or a subset of this table's): that
                        table's generated folder; DIR gets only the rows and types
                        this table adds or changes and imports the rest from there
  -h, --help            show this help

Messages go to stderr. Exit 0 on success, 1 when --check finds stale files,
2 when the table breaks a rule (each problem names the row and the field).
`;
