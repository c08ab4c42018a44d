/**
 * Code highlighting for Cubey's answers, loaded on demand: lowlight (highlight.js's grammars)
 * comes in a chunk of its own the first time an answer shows a code block. Its output is a tree
 * of spans with `hljs-*` classes, rendered as React elements here: no HTML string and no inline
 * style, so it works under our CSP without 'unsafe-inline'; the colours are in index.css.
 */
import { createElement, type ReactNode, useEffect, useState } from 'react';

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties?: { className?: string[] | string };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: 'comment' | 'doctype'; value?: string };
interface HastRoot {
  type: 'root';
  children: HastNode[];
}

export type Highlighter = (code: string, language: string | null) => HastRoot | null;

let loading: Promise<Highlighter> | null = null;
let loaded: Highlighter | null = null;

/** The highlighter, loading its chunk once. */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('lowlight').then(({ createLowlight, common }) => {
    const lowlight = createLowlight(common);
    loaded = (code, language) => {
      const lang = language?.toLowerCase() ?? null;
      if (lang && lowlight.registered(lang)) return lowlight.highlight(lang, code) as HastRoot;
      // An unnamed language is guessed only from enough code: a few words are left plain.
      if (!lang && code.length >= 40) return lowlight.highlightAuto(code) as HastRoot;
      return null;
    };
    return loaded;
  });
  return loading;
}

function render(nodes: HastNode[], key = 'h'): ReactNode[] {
  return nodes.map((node, i) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const className = node.properties?.className;
    return createElement(
      'span',
      { key: `${key}.${i}`, className: Array.isArray(className) ? className.join(' ') : className },
      ...render(node.children, `${key}.${i}`),
    );
  });
}

/**
 * `code` highlighted as `language` (its classes only), or the plain text until the highlighter is
 * there and for a language it does not know. The text is the same either way, so nothing moves.
 */
export function useHighlighted(code: string, language: string | null): ReactNode {
  const [highlighter, setHighlighter] = useState<Highlighter | null>(() => loaded);
  useEffect(() => {
    if (highlighter) return;
    let live = true;
    loadHighlighter()
      .then((h) => {
        if (live) setHighlighter(() => h);
      })
      .catch(() => {
        // Offline or the chunk failed: the code stays plain.
      });
    return () => {
      live = false;
    };
  }, [highlighter]);
  const tree = highlighter?.(code, language);
  return tree ? render(tree.children) : code;
}
