"""Answer prose with clickable ``[n]``: a custom component (Streamlit components v2, inline JavaScript, no build
step) that writes the prose as text nodes and each citation as a button; a click comes back to Python as the
trigger value ``cite`` ("n:k": the source's number and which of its citations in the answer, from 0), which
opens the reader at that citation's passage.

Book text stays text: the script only ever sets ``textContent``/``title`` and never parses HTML, so a passage
holding "<script>" or "**bold**" shows exactly those characters.
"""
from __future__ import annotations

import streamlit as st

from rag.evidence.blocks import cite_segments

_CSS = """
.folio-prose { font-family: var(--st-font, "Source Sans Pro", sans-serif); color: var(--st-text-color, #31333f);
  font-size: 1rem; line-height: 1.6; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.folio-prose button.cite { font: inherit; font-size: 0.78em; font-weight: 600; line-height: 1.2;
  color: var(--st-primary-color, #ff4b4b); background: transparent; cursor: pointer;
  border: 1px solid var(--st-primary-color, #ff4b4b); border-radius: 0.7em; padding: 0 0.4em; margin: 0 0.08em;
  vertical-align: 0.1em; }
.folio-prose button.cite:hover, .folio-prose button.cite:focus-visible {
  background: var(--st-primary-color, #ff4b4b); color: var(--st-background-color, #fff); outline: none; }
"""

_JS = """
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.folio-prose');
  if (!root) {
    root = document.createElement('p');
    root.className = 'folio-prose';
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  const parts = (data && data.parts) || [];
  for (const part of parts) {
    if (part[0] === 'cite') {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cite';
      b.textContent = '[' + part[1] + ']';
      b.title = part[2] || '';
      b.setAttribute('aria-label', 'Open source ' + part[1] + (part[2] ? ': ' + part[2] : ''));
      b.dataset.n = String(part[1]);
      b.addEventListener('click', () => setTriggerValue('cite', part[1] + ':' + part[3]));
      root.appendChild(b);
    } else {
      root.appendChild(document.createTextNode(String(part[1])));
    }
  }
}
"""

_prose = st.components.v2.component("folio_cited_prose", css=_CSS, js=_JS)


def cited_prose(text: str, labels: dict[int, str], key: str, seen: dict[int, int] | None = None
                ) -> tuple[int, int] | None:
    """Show ``text`` with each ``[n]`` naming a source in ``labels`` (n → "Book › Section, p. 4", the tooltip) as
    a button; returns (n, k) for the [n] clicked in this run, its k-th (from 0) in the answer, else None.
    ``seen`` counts each source's citations in the answer's earlier paragraphs, and is updated."""
    seen = {} if seen is None else seen
    parts = []
    for kind, value in cite_segments(text, set(labels)):
        if kind == "cite":
            parts.append([kind, value, labels.get(value, ""), seen.get(value, 0)])
            seen[value] = seen.get(value, 0) + 1
        else:
            parts.append([kind, value])
    result = _prose(key=key, data={"parts": parts}, on_cite_change=lambda: None)
    value = str(getattr(result, "cite", None) or "")
    n, _, k = value.partition(":")
    return (int(n), int(k or 0)) if n.isdigit() and (k or "0").isdigit() else None
