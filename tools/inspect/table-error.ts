/**
 * A failure to load `--table`: its message is the one line the CLI prints.
 * In its own module so the CLI can recognise it without loading the tables
 * (tables.ts imports every generated protocol; the proxy's thread needs none
 * of them unless `--table` is given).
 */
export class TableLoadError extends Error {}
