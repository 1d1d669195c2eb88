import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Ordinary Hono calls still compile and still answer, so nothing else notices when a route uses
// one: the response just goes out without its CORS headers and X-Request-Id, or a body is read
// without the size limit. Outside src/http (and src/serving, the machinery under it, whose adapter's
// test asks for the web Request on purpose), requests are read and answered only through
// request.ts, reply.ts and the route's declared input (see README.md here).

const CONTEXT = String.raw`\b(?:c|ctx|context)`;

const RULES: { pattern: RegExp; why: string }[] = [
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.(?:json|text|html|body|redirect|newResponse)\(`),
    why: "builds the response from Hono's own headers, so the header bag (CORS, X-Request-Id) is lost; use reply() or replyJson()",
  },
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.header\(`),
    why: "sets a header in Hono's own headers, which reply() never sends; use setHeader()",
  },
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.res\b`),
    why: 'edits the response after it is built, which makes the Node adapter copy it; use setHeader() before replying',
  },
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.req\.(?:header\(|raw\.headers)`),
    why: 'builds web Headers from headers Node has already parsed (bench/catalog.ts); use requestHeader() or requestHeaderLines()',
  },
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.req\.method\b`),
    why: "reads GET for a HEAD under Node's server (the adapter hands Hono a HEAD as its GET); use requestMethod()",
  },
  {
    pattern: new RegExp(String.raw`${CONTEXT}\.req\.(?:json|text|arrayBuffer|blob|formData|parseBody)\(`),
    why: "reads the body without the 64 KiB limit and the route's 400 envelope; declare the route's `body` schema instead",
  },
];

interface Bypass {
  line: number;
  code: string;
  why: string;
}

/** The calls in one file's source that bypass the header bag or the body limit; comments are skipped. */
function findBypasses(source: string): Bypass[] {
  const found: Bypass[] = [];
  source.split('\n').forEach((text, index) => {
    const code = text.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    for (const rule of RULES) if (rule.pattern.test(code)) found.push({ line: index + 1, code, why: rule.why });
  });
  return found;
}

const SRC = fileURLToPath(new URL('..', import.meta.url));
const BELOW_ROUTES = [join(SRC, 'http'), join(SRC, 'serving')];
const REPO = join(SRC, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return BELOW_ROUTES.includes(path) ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('Hono calls outside src/http', () => {
  it('are recognised, whichever of them is used', () => {
    const sample = [
      'return c.json({ ok: true });',
      "c.header('Vary', 'Origin');",
      "return c.text('hello', 200);",
      'return c.html(page);',
      'return c.body(null, 204);',
      "return c.redirect('/admin');",
      "c.res.headers.set('X', '1');",
      "const origin = c.req.header('origin');",
      'const all = c.req.raw.headers;',
      'const body = await c.req.json();',
      'const form = await c.req.parseBody();',
      "const apply = c.req.method !== 'HEAD';",
      '// c.json() here would lose CORS',
      'return replyJson(c, 200, value);',
      "const file = assets.get(c.req.param('file'));",
    ].join('\n');
    assert.deepEqual(
      findBypasses(sample).map((b) => b.line),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
  });

  it('are not used: responses go through reply.ts, request headers through request.ts', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 50, `found only ${files.length} source files under ${SRC}`);
    const bypasses = files.flatMap((file) =>
      findBypasses(readFileSync(file, 'utf8')).map((b) => `${relative(REPO, file)}:${b.line}: ${b.code}\n    ${b.why}`),
    );
    assert.equal(bypasses.length, 0, `Hono calls that bypass src/http:\n${bypasses.join('\n')}`);
  });
});
