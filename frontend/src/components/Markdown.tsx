// A small Markdown renderer for the rules texts: headings, lists, paragraphs, **bold**, *italic*
// and `code`. It builds React elements, never HTML strings, so no text can inject markup.
import type { ReactElement, ReactNode } from "react";

function inline(text: string, keyBase: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*]+\*|_[^_]+_)/g;
  let last = 0;
  let match: RegExpExecArray | null;
  let n = 0;
  while ((match = pattern.exec(text)) !== null) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const token = match[0];
    const key = `${keyBase}-${n++}`;
    if (token.startsWith("**")) parts.push(<strong key={key}>{token.slice(2, -2)}</strong>);
    else if (token.startsWith("`")) parts.push(<code key={key}>{token.slice(1, -1)}</code>);
    else parts.push(<em key={key}>{token.slice(1, -1)}</em>);
    last = match.index + token.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "para"; text: string }
  | { kind: "table"; rows: string[][] };

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

function blocks(source: string): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let table: string[][] | null = null;
  const flush = () => {
    if (para.length) out.push({ kind: "para", text: para.join(" ") });
    if (list) out.push({ kind: "list", ...list });
    if (table) out.push({ kind: "table", rows: table });
    para = [];
    list = null;
    table = null;
  };
  for (const raw of source.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) flush();
    else if (line.trim().startsWith("|")) {
      if (!table) flush();
      // The separator row under the header (|---|---|) carries no text.
      if (!/^\s*\|?[\s:|-]+\|?\s*$/.test(line)) (table ??= []).push(cells(line));
      else table ??= [];
    } else if (heading) {
      flush();
      out.push({ kind: "heading", level: heading[1].length, text: heading[2] });
    } else if (bullet || numbered) {
      if (para.length) flush();
      const ordered = Boolean(numbered);
      if (!list || list.ordered !== ordered) {
        flush();
        list = { ordered, items: [] };
      }
      list.items.push((bullet ?? numbered)![1]);
    } else if (list && /^\s+/.test(raw)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out;
}

/** Renders Markdown text as safe React elements. */
export function Markdown({ source, headingOffset = 0 }: { source: string; headingOffset?: number }): ReactElement {
  return (
    <div className="rules-text">
      {blocks(source).map((block, i) => {
        const key = `b${i}`;
        if (block.kind === "heading") {
          const level = Math.min(6, block.level + headingOffset);
          const Tag = `h${level}` as "h1";
          return <Tag key={key}>{inline(block.text, key)}</Tag>;
        }
        if (block.kind === "list") {
          const items = block.items.map((item, j) => <li key={j}>{inline(item, `${key}-${j}`)}</li>);
          return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
        }
        if (block.kind === "table") {
          const [head, ...body] = block.rows;
          return (
            <table key={key}>
              {head && <thead><tr>{head.map((c, j) => <th key={j} scope="col">{inline(c, `${key}h${j}`)}</th>)}</tr></thead>}
              <tbody>
                {body.map((row, r) => (
                  <tr key={r}>{row.map((c, j) => <td key={j}>{inline(c, `${key}-${r}-${j}`)}</td>)}</tr>
                ))}
              </tbody>
            </table>
          );
        }
        return <p key={key}>{inline(block.text, key)}</p>;
      })}
    </div>
  );
}
