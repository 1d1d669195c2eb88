import { Lexer, type Token } from 'marked';

/**
 * The plain text a reader sees in a markdown body, for indexing and excerpts: markup is dropped
 * (emphasis, links and images keep their text, HTML tags go as a browser would hide them), character
 * references are decoded, code keeps its text. One line per block (heading, paragraph, list item,
 * table row, code block), whitespace inside a block collapsed to single spaces.
 */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  addBlocks(Lexer.lex(markdown), lines);
  return lines.join('\n');
}

function addBlocks(tokens: Token[], lines: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading':
      case 'paragraph':
        addLine(inlineText(token.tokens ?? []), lines);
        break;
      case 'text':
        // A block-level text token: the content of a tight list item.
        addLine(token.tokens ? inlineText(token.tokens) : decodeReferences(token.text), lines);
        break;
      case 'code':
        addLine(token.text, lines);
        break;
      case 'html':
        addLine(decodeReferences(stripTags(token.text)), lines);
        break;
      case 'blockquote':
        addBlocks(token.tokens ?? [], lines);
        break;
      case 'list':
        for (const item of token.items) addBlocks(item.tokens, lines);
        break;
      case 'table':
        for (const row of [token.header, ...token.rows]) {
          addLine(row.map((cell: { tokens: Token[] }) => inlineText(cell.tokens)).join(' '), lines);
        }
        break;
      default:
        // space, hr, def (link reference definitions), checkbox: nothing a reader reads.
        break;
    }
  }
}

function inlineText(tokens: Token[]): string {
  let text = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        text += token.tokens ? inlineText(token.tokens) : decodeReferences(token.text);
        break;
      case 'escape':
      case 'codespan':
        text += token.text;
        break;
      case 'image':
        text += decodeReferences(token.text);
        break;
      case 'strong':
      case 'em':
      case 'del':
      case 'link':
        text += inlineText(token.tokens ?? []);
        break;
      case 'br':
        text += ' ';
        break;
      default:
        // Inline HTML (hidden, as a browser hides it), checkboxes.
        break;
    }
  }
  return text;
}

function addLine(text: string, lines: string[]): void {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line) lines.push(line);
}

function stripTags(html: string): string {
  return html.replace(/<!--[\s\S]*?-->|<\/?[a-zA-Z][^>]*>/g, ' ');
}

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Markdown decodes HTML character references in text (`&amp;` reads `&`); code keeps them literal. */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([a-z]+));/g, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_REFERENCES[name] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}
