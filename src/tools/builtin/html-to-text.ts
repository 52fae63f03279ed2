/** Named entities decoded besides numeric ones. */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  laquo: '«',
  raquo: '»',
  euro: '€',
  pound: '£',
  yen: '¥',
  deg: '°',
  times: '×',
};

/** Decodes HTML character references (`&amp;`, `&#39;`, `&#x27;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

const DROPPED =
  /<(script|style|noscript|template|svg|head|iframe|object)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK =
  /<\/?(p|div|section|article|header|footer|main|nav|aside|h[1-6]|ul|ol|table|thead|tbody|tfoot|tr|blockquote|pre|figure|figcaption|form|fieldset|dl|dt|dd|hr|address|details|summary)\b[^>]*>/gi;

/**
 * Converts HTML to readable plain text, like the `html-to-text` settings gemini-cli's web_fetch uses: scripts,
 * styles and the head dropped; block elements on their own lines; list items as `* item` lines; a table row's cells
 * on one line; images skipped; links as their text (followed by ` [href]` when `keepHrefs`).
 */
export function htmlToText(
  html: string,
  options: { keepHrefs?: boolean; baseUrl?: string } = {},
): string {
  let text = html.replace(/<!--[\s\S]*?-->/g, '').replace(DROPPED, '');
  const pres: string[] = [];
  text = text.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_m, body: string) => {
    pres.push(body.replace(/<[^>]+>/g, ''));
    return `\n\u0000PRE${pres.length - 1}\u0000\n`;
  });
  text = text.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs: string, inner: string) => {
    if (!options.keepHrefs) return inner;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const raw = href?.[1] ?? href?.[2] ?? href?.[3];
    if (!raw || raw.startsWith('#') || raw.startsWith('javascript:')) return inner;
    let resolved = decodeEntities(raw);
    try {
      resolved = new URL(resolved, options.baseUrl).href;
    } catch {
      // keep as written
    }
    return `${inner} [${resolved}]`;
  });
  text = text
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n* ')
    .replace(/<\/li\s*>/gi, '')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(BLOCK, '\n\n')
    .replace(/<[^>]+>/g, '');
  text = decodeEntities(text);
  const lines = text.split('\n').map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim());
  text = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0000PRE(\d+)\u0000/g, (_m, index: string) =>
    decodeEntities(pres[Number(index)] ?? ''),
  );
}
