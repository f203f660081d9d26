import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Attributes that show text to a person; a literal there bypasses i18n. */
const TEXT_ATTRIBUTES = new Set([
  'title',
  'subTitle',
  'description',
  'placeholder',
  'label',
  'alt',
  'aria-label',
  'okText',
  'cancelText',
  'tooltip',
  'extra',
  'help',
  'message',
  'content',
  'checkedChildren',
  'unCheckedChildren',
]);
/** Letters (any script) other than what is not language: punctuation, digits, symbols. */
const WORDS = /\p{L}/u;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return full.endsWith('.tsx') && !full.endsWith('.test.tsx') ? [full] : [];
  });
}

function inlineTexts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(path.resolve(import.meta.dirname, '..'), file)}:${line + 1}`;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && WORDS.test(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    if (ts.isJsxAttribute(node) && node.initializer && TEXT_ATTRIBUTES.has(node.name.getText(source))) {
      const init = node.initializer;
      const literal = ts.isStringLiteral(init)
        ? init.text
        : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
          ? init.expression.text
          : null;
      if (literal !== null && WORDS.test(literal))
        found.push(`${where(node)} ${node.name.getText(source)}="${literal}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no user-visible string bypasses i18n', () => {
  it('has no literal text in JSX or in text attributes of any screen, layout or widget', () => {
    const root = path.resolve(import.meta.dirname, '..');
    expect(files(root).flatMap(inlineTexts)).toEqual([]);
  });

  it('notices a literal when there is one', () => {
    const probe = path.join(import.meta.dirname, '__probe__.tsx');
    const check = (code: string) => {
      const src = ts.createSourceFile(probe, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      let hits = 0;
      const visit = (n: ts.Node) => {
        if (ts.isJsxText(n) && WORDS.test(n.text)) hits++;
        ts.forEachChild(n, visit);
      };
      visit(src);
      return hits;
    };
    expect(check('const a = <p>儲存</p>;')).toBe(1);
    expect(check("const a = <p>{t('save')}</p>;")).toBe(0);
  });
});
