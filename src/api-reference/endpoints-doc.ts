import type { Route } from '../http/route.ts';

// docs/endpoints.md's route tables are written from the routes (npm run docs:endpoints), so a route's
// prose has one copy, its summary and description; the rest of the page stays hand-written.

export const TABLES_START =
  '<!-- The route tables below are written from the routes by npm run docs:endpoints: edit the routes, not these. -->';
export const TABLES_END = '<!-- End of the route tables written from the routes. -->';

/** A text made one table cell: on one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
}

function row(route: Route): string {
  const what = route.description ? `${route.summary}. ${route.description}` : `${route.summary}.`;
  return `| \`${route.method} ${route.path}\` | ${route.ownerOnly ? 'owner-only' : ''} | ${cell(what)} |`;
}

/** One table per OpenAPI tag, the tags in the order their first route is mounted. */
export function routeTables(routes: Route[]): string {
  const byTag = Map.groupBy(routes, (route) => route.tag);
  return [...byTag]
    .map(([tag, tagged]) => [`### ${tag}`, '', '| route | who | what it does |', '|---|---|---|', ...tagged.map(row)].join('\n'))
    .join('\n\n');
}

/** The page with the text between its markers replaced by the routes' tables. */
export function withRouteTables(page: string, routes: Route[]): string {
  const start = page.indexOf(TABLES_START);
  const end = page.indexOf(TABLES_END);
  if (start === -1 || end < start) throw new Error('docs/endpoints.md has lost the markers of its route tables');
  return `${page.slice(0, start + TABLES_START.length)}\n\n${routeTables(routes)}\n\n${page.slice(end)}`;
}
