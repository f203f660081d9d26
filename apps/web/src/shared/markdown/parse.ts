/**
 * A small Markdown reader for the manual and the legal pages (our own files): headings, paragraphs, lists,
 * quotes, fenced code, rules, tables and the inline forms **bold**, *emphasis*, `code`, [links](…) and ![images](…).
 * It builds a tree that markdown.tsx renders as React elements, so no HTML string is ever injected.
 */

export type TInline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; children: TInline[] }
  | { kind: 'em'; children: TInline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: TInline[] }
  | { kind: 'image'; src: string; alt: string };

export type TBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; id: string; children: TInline[]; text: string }
  | { kind: 'paragraph'; children: TInline[] }
  | { kind: 'list'; ordered: boolean; items: TInline[][] }
  | { kind: 'quote'; children: TBlock[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'rule' }
  | { kind: 'table'; header: TInline[][]; rows: TInline[][][] };

const INLINE = /(\*\*([^*]+)\*\*)|(\*([^*]+)\*)|(`([^`]+)`)|(!\[([^\]]*)\]\(([^)\s]+)\))|(\[([^\]]+)\]\(([^)\s]+)\))/;

export function parseInline(text: string): TInline[] {
  const out: TInline[] = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ kind: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ kind: 'text', text: rest.slice(0, m.index) });
    if (m[1]) out.push({ kind: 'strong', children: parseInline(m[2]!) });
    else if (m[3]) out.push({ kind: 'em', children: parseInline(m[4]!) });
    else if (m[5]) out.push({ kind: 'code', text: m[6]! });
    else if (m[7]) out.push({ kind: 'image', alt: m[8]!, src: m[9]! });
    else if (m[10]) out.push({ kind: 'link', href: m[12]!, children: parseInline(m[11]!) });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

export function inlineText(nodes: TInline[]): string {
  return nodes
    .map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : n.kind === 'image' ? n.alt : inlineText(n.children)))
    .join('');
}

/** Heading anchor: lower case, spaces to dashes, keeps CJK. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s+/g, '-');
}

const splitRow = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => parseInline(c.trim()));

export function parseMarkdown(source: string): TBlock[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: TBlock[] = [];
  let i = 0;
  const isBlank = (l: string | undefined) => l === undefined || l.trim() === '';
  const startsBlock = (l: string) =>
    /^(#{1,4})\s/.test(l) ||
    /^```/.test(l) ||
    /^>\s?/.test(l) ||
    /^\s*([-*]|\d+\.)\s/.test(l) ||
    /^(-{3,}|\*{3,})\s*$/.test(l);

  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const children = parseInline(heading[2]!.trim());
      const text = inlineText(children);
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4, id: slugify(text), children, text });
      i++;
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ kind: 'code', lang: fence[1] ?? '', text: body.join('\n') });
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (/^>\s?/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i]!)) body.push(lines[i++]!.replace(/^>\s?/, ''));
      blocks.push({ kind: 'quote', children: parseMarkdown(body.join('\n')) });
      continue;
    }
    const list = /^\s*([-*]|\d+\.)\s+/.exec(line);
    if (list) {
      const ordered = /\d/.test(list[1]!);
      const items: TInline[][] = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i]!)) {
        let text = lines[i++]!.replace(/^\s*([-*]|\d+\.)\s+/, '');
        // Continuation lines (indented) belong to the item.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]!) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i]!))
          text += ` ${lines[i++]!.trim()}`;
        items.push(parseInline(text));
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (line.trim().startsWith('|') && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) {
      const header = splitRow(line);
      i += 2;
      const rows: TInline[][][] = [];
      while (i < lines.length && lines[i]!.trim().startsWith('|')) rows.push(splitRow(lines[i++]!));
      blocks.push({ kind: 'table', header, rows });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]!)))
      para.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', children: parseInline(para.join(' ')) });
  }
  return blocks;
}
