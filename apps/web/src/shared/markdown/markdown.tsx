import { Typography } from 'antd';
import { Fragment, type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { parseMarkdown, type TBlock, type TInline } from './parse';

function renderInline(nodes: TInline[]): ReactNode {
  return nodes.map((n, i) => {
    const key = `${n.kind}-${i}`;
    switch (n.kind) {
      case 'text':
        return <Fragment key={key}>{n.text}</Fragment>;
      case 'strong':
        return <strong key={key}>{renderInline(n.children)}</strong>;
      case 'em':
        return <em key={key}>{renderInline(n.children)}</em>;
      case 'code':
        return (
          <Typography.Text key={key} code>
            {n.text}
          </Typography.Text>
        );
      case 'image':
        return <img key={key} src={n.src} alt={n.alt} style={{ maxWidth: '100%' }} />;
      case 'link':
        return n.href.startsWith('/') ? (
          <Link key={key} to={n.href}>
            {renderInline(n.children)}
          </Link>
        ) : (
          <a key={key} href={n.href} target="_blank" rel="noreferrer">
            {renderInline(n.children)}
          </a>
        );
    }
    return null;
  });
}

function renderBlock(b: TBlock, i: number): ReactNode {
  const key = `${b.kind}-${i}`;
  switch (b.kind) {
    case 'heading':
      return (
        <Typography.Title key={key} level={b.level} id={b.id}>
          {renderInline(b.children)}
        </Typography.Title>
      );
    case 'paragraph':
      return <Typography.Paragraph key={key}>{renderInline(b.children)}</Typography.Paragraph>;
    case 'list': {
      // Our documents are static: items never move, so their position is a stable key.
      // biome-ignore lint/suspicious/noArrayIndexKey: static document content
      const items = b.items.map((item, j) => <li key={`li-${j}`}>{renderInline(item)}</li>);
      return b.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'quote':
      return <blockquote key={key}>{b.children.map(renderBlock)}</blockquote>;
    case 'code':
      return (
        <pre key={key} style={{ overflowX: 'auto' }}>
          <code>{b.text}</code>
        </pre>
      );
    case 'rule':
      return <hr key={key} />;
    case 'table':
      return (
        <table key={key} className="md-table">
          <thead>
            <tr>
              {b.header.map((c, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static document content
                <th key={`h-${j}`}>{renderInline(c)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {b.rows.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static document content
              <tr key={`r-${r}`}>
                {row.map((c, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: static document content
                  <td key={`c-${j}`}>{renderInline(c)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
  }
  return null;
}

/** Render one of our Markdown documents (manual, legal pages). */
export function Markdown({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <Typography className="markdown">{blocks.map(renderBlock)}</Typography>;
}
