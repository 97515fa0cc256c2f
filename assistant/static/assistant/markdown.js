// A small, safe Markdown renderer for answers. It builds DOM nodes with textContent only, so
// nothing the model writes can become HTML: tags arrive as text, links are kept only for
// http(s) and mailto addresses, and `[S1]` marks become links to the cited message.
// Supported: paragraphs, line breaks, headings, bullet and numbered lists, block quotes,
// fenced code, **bold**, *emphasis*, `code`, [text](https://…) links and citation marks.

const INLINE = /(\*\*[^*\n]+?\*\*|__[^_\n]+?__|\*(?!\s)[^*\n]+?\*|_(?!\s)[^_\n]+?_(?![A-Za-z0-9])|`[^`\n]+`|\[S\d+\]|\[[^\]\n]+\]\([^\s)]+\))/g;
const SAFE_URL = /^(https?:\/\/|mailto:)/i;

function element(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

// `cite(id)` returns a node for a citation mark, or null to keep the mark as text.
function appendInline(parent, text, cite) {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const token = match[0];
    let node = null;
    if (token.startsWith("**") || token.startsWith("__")) {
      node = element("strong");
      appendInline(node, token.slice(2, -2), cite);
    } else if (token.startsWith("`")) {
      node = element("code");
      node.textContent = token.slice(1, -1);
    } else if (/^\[S\d+\]$/.test(token)) {
      node = cite(token.slice(1, -1));
    } else if (token.startsWith("[")) {
      const split = token.indexOf("](");
      const label = token.slice(1, split);
      const url = token.slice(split + 2, -1);
      if (SAFE_URL.test(url)) {
        node = element("a");
        node.href = url;
        node.rel = "noopener noreferrer nofollow";
        node.target = "_blank";
        appendInline(node, label, cite);
      }
    } else {
      node = element("em");
      appendInline(node, token.slice(1, -1), cite);
    }
    parent.append(node || token);
    last = match.index + token.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

function appendLines(parent, lines, cite) {
  lines.forEach((line, index) => {
    if (index) parent.append(element("br"));
    appendInline(parent, line, cite);
  });
}

// Render `text` into a fragment. `cite(id)` makes the node of a mark (see citationLink).
export function renderMarkdown(text, cite = () => null) {
  const fragment = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let paragraph = [];
  let list = null;
  let quote = null;
  const flush = () => {
    if (paragraph.length) {
      const p = element("p");
      appendLines(p, paragraph, cite);
      fragment.append(p);
      paragraph = [];
    }
    list = null;
    quote = null;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fence = line.match(/^\s*```/);
    if (fence) {
      flush();
      const code = [];
      index++;
      while (index < lines.length && !/^\s*```/.test(lines[index])) code.push(lines[index++]);
      const pre = element("pre");
      const inner = element("code");
      inner.textContent = code.join("\n");
      pre.append(inner);
      fragment.append(pre);
      continue;
    }
    if (!line.trim()) { flush(); continue; }
    const heading = line.match(/^\s*#{1,6}\s+(.*)$/);
    if (heading) {
      flush();
      const p = element("p", "md-heading");
      const strong = element("strong");
      appendInline(strong, heading[1], cite);
      p.append(strong);
      fragment.append(p);
      continue;
    }
    const bullet = line.match(/^\s*[-*+]\s+(.*)$/);
    const numbered = line.match(/^\s*(\d+)[.)]\s+(.*)$/);
    if (bullet || numbered) {
      if (paragraph.length) { const keep = list; flush(); list = keep; }
      const kind = bullet ? "ul" : "ol";
      if (!list || list.tagName.toLowerCase() !== kind) {
        quote = null;
        list = element(kind);
        if (numbered && numbered[1] !== "1") list.start = Number(numbered[1]);
        fragment.append(list);
      }
      const item = element("li");
      appendInline(item, bullet ? bullet[1] : numbered[2], cite);
      list.append(item);
      continue;
    }
    const quoted = line.match(/^\s*>\s?(.*)$/);
    if (quoted) {
      if (paragraph.length) flush();
      list = null;
      if (!quote) { quote = element("blockquote"); fragment.append(quote); }
      const p = element("p");
      appendInline(p, quoted[1], cite);
      quote.append(p);
      continue;
    }
    if (list && /^\s{2,}\S/.test(line) && list.lastElementChild) {
      // A continuation line of the last list item.
      list.lastElementChild.append(" ");
      appendInline(list.lastElementChild, line.trim(), cite);
      continue;
    }
    list = null;
    quote = null;
    paragraph.push(line);
  }
  flush();
  return fragment;
}

// The readable words of Markdown, for announcing: marks and symbols dropped.
export function plainText(text) {
  return text
    .replace(/\[S\d+\]/g, "")
    .replace(/\[([^\]\n]+)\]\([^\s)]+\)/g, "$1")
    .replace(/[*_`#>]+/g, "")
    .replace(/^\s*[-+]\s+/gm, "")
    .replace(/[ \t]+/g, " ")
    .replace(/ +([.,;:!?])/g, "$1");
}

// Split the text streamed so far into finished sentences and the unfinished rest: a sentence
// ends at . ! ? … (followed by a space, a mark or a line break) or at a line break.
export function finishedSentences(text) {
  const sentences = [];
  const pattern = /[^\n]*?(?:[.!?…](?=\s|\[S\d+\])(?:\s*\[S\d+\])*|\n)/g;
  let consumed = 0;
  let match;
  while ((match = pattern.exec(text)) !== null) {
    if (match[0] === "" ) { pattern.lastIndex++; continue; }
    const sentence = plainText(match[0]).trim();
    if (sentence) sentences.push(sentence);
    consumed = pattern.lastIndex;
  }
  return { sentences, rest: text.slice(consumed) };
}
