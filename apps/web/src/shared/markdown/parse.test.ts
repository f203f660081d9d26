import { describe, expect, it } from 'vitest';
import { pickDocument } from './localized';
import { parseInline, parseMarkdown } from './parse';

describe('markdown reader', () => {
  it('reads headings, paragraphs, lists, tables, quotes and code', () => {
    const blocks = parseMarkdown(
      '# 標題 One\n\nline one\nline two\n\n- a\n- **b**\n\n1. x\n2. y\n\n| h1 | h2 |\n|---|---|\n| c1 | c2 |\n\n> quoted\n\n```\ncode <b>\n```\n\n---\n',
    );
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'table',
      'quote',
      'code',
      'rule',
    ]);
    expect(blocks[0]).toMatchObject({ level: 1, id: '標題-one', text: '標題 One' });
    expect(blocks[1]).toEqual({ kind: 'paragraph', children: [{ kind: 'text', text: 'line one line two' }] });
    expect(blocks[2]).toMatchObject({ ordered: false, items: [[{ text: 'a' }], [{ kind: 'strong' }]] });
    expect(blocks[3]).toMatchObject({ ordered: true });
    expect(blocks[4]).toMatchObject({
      header: [[{ text: 'h1' }], [{ text: 'h2' }]],
      rows: [[[{ text: 'c1' }], [{ text: 'c2' }]]],
    });
    expect(blocks[6]).toEqual({ kind: 'code', lang: '', text: 'code <b>' });
  });

  it('reads inline links, images, code and emphasis, leaving HTML as text', () => {
    expect(parseInline('see [login](/login) and ![qr](/q.png), `x`, *em* <script>')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: '/login', children: [{ kind: 'text', text: 'login' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'image', src: '/q.png', alt: 'qr' },
      { kind: 'text', text: ', ' },
      { kind: 'code', text: 'x' },
      { kind: 'text', text: ', ' },
      { kind: 'em', children: [{ kind: 'text', text: 'em' }] },
      { kind: 'text', text: ' <script>' },
    ]);
  });
});

describe('document by language', () => {
  const load = async () => '';
  const docs = { './zh-TW/a.md': load, './en/a.md': load, './zh-TW/b.md': load };
  it('takes the chosen language, falls back to zh-TW, else nothing', () => {
    expect(pickDocument(docs, '.', 'a', 'en')).toMatchObject({ language: 'en', fallback: false });
    expect(pickDocument(docs, '.', 'b', 'ja')).toMatchObject({ language: 'zh-TW', fallback: true });
    expect(pickDocument(docs, '.', 'b', 'zh-TW')).toMatchObject({ language: 'zh-TW', fallback: false });
    expect(pickDocument(docs, '.', 'c', 'en')).toBeNull();
  });
});
