import { Fragment, memo, type ReactNode } from 'react';
import { safeHref, type Align, type Block, type Inline } from '../../app/exercise/markdown.ts';

export interface MarkdownProps {
  blocks: readonly Block[];
  /** Added to heading levels, so a lesson's `#` sits below the page's own headings. */
  headingOffset?: number;
  /** Prefix of heading element ids (`{#ids}` → `${idPrefix}ids`), unique on the page. */
  idPrefix?: string;
}

/** Renders parsed Markdown as React elements: text is always text, never HTML. Memoised: a lesson is long. */
export const Markdown = memo(function Markdown({ blocks, headingOffset = 0, idPrefix = '' }: MarkdownProps) {
  return <>{blocks.map((block, index) => renderBlock(block, index, headingOffset, idPrefix))}</>;
});

function renderBlock(block: Block, key: number, headingOffset: number, idPrefix: string): ReactNode {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, block.level + headingOffset);
      const Tag = `h${level}` as 'h2';
      // tabIndex -1: a link from a test result moves focus here, so keyboard users land on the step.
      return (
        <Tag key={key} id={block.id === null ? undefined : idPrefix + block.id} tabIndex={block.id === null ? undefined : -1}>
          {renderInlines(block.children)}
        </Tag>
      );
    }
    case 'paragraph':
      return <p key={key}>{renderInlines(block.children)}</p>;
    case 'code':
      return (
        <pre key={key} className="markdown-code">
          <code>{block.text}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, index) => (
        // A single-paragraph item renders without <p>, so lists stay compact.
        <li key={index}>{item.length === 1 && item[0]?.type === 'paragraph' ? renderInlines(item[0].children) : item.map((child, i) => renderBlock(child, i, headingOffset, idPrefix))}</li>
      ));
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table':
      return (
        <div key={key} className="markdown-table">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, column) => (
                  <th key={column} scope="col" style={alignStyle(block.align[column])}>
                    {renderInlines(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, column) => (
                    <td key={column} style={alignStyle(block.align[column])}>
                      {renderInlines(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'quote':
      return <blockquote key={key}>{block.children.map((child, index) => renderBlock(child, index, headingOffset, idPrefix))}</blockquote>;
    case 'rule':
      return <hr key={key} />;
  }
}

function alignStyle(align: Align | undefined) {
  return align ? { textAlign: align } : undefined;
}

export function renderInlines(nodes: readonly Inline[]): ReactNode {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={index}>{node.text}</Fragment>;
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'strong':
        return <strong key={index}>{renderInlines(node.children)}</strong>;
      case 'em':
        return <em key={index}>{renderInlines(node.children)}</em>;
      case 'link': {
        const href = safeHref(node.href);
        if (href === null) return <Fragment key={index}>{renderInlines(node.children)}</Fragment>;
        const external = /^(https?:|mailto:)/i.test(href);
        return (
          <a key={index} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {renderInlines(node.children)}
          </a>
        );
      }
    }
  });
}
