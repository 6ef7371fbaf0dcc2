/**
 * The paths of this machine a real agent's run can show — its install
 * folder, the scratch HOME and session cwd made for it, and the repository
 * the run starts from (the agent's process cwd, which some agents report) —
 * replaced by names, so nothing of this machine reaches the pages.
 */

/** Where one run's paths are, and the name its install folder is shown as. */
export interface RunPaths {
  readonly folder: string;
  readonly folderName: string;
  readonly home: string;
  readonly cwd: string;
  readonly repo: string;
}

/** `text` with the run's paths as `<folderName>`, `$HOME`, `<cwd>` and `<repo>`. */
export function scrubPaths(text: string, paths: RunPaths): string {
  const repo = paths.repo.replace(/\/+$/, "");
  return text.split(paths.folder).join(`<${paths.folderName}>`).split(paths.home).join("$HOME").split(paths.cwd).join("<cwd>").split(repo).join("<repo>");
}
