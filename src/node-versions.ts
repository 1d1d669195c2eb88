// The Node versions tenpo runs on, in one place: the start's check (main.ts) and the release's
// package.json `engines` (scripts/release.ts) are written from it. The project's own package.json
// has no `engines`: it installs on any Node, since `npm install` brings the Node 26 its scripts run.

/** The Node majors tenpo runs on. */
export const SUPPORTED_NODE = [24, 26];

/** The same as package.json's `engines.node` writes it. */
export function enginesRange(): string {
  return SUPPORTED_NODE.map((major) => `>=${major} <${major + 1}`).join(' || ');
}
