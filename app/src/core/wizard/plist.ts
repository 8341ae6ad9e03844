// A small, strict reader for Apple's XML property lists (what `diskutil … -plist` prints):
// dict, array, string, integer, real, true, false, data and date, turned into plain JS values.
// Strict on purpose: the wizard decides which disk to erase from this output, so anything it does
// not understand (a stray tag, an unknown entity, a key without a value, a duplicate key, text
// after the root) is an error with a line and column, never a guess. No dependency: the format is
// small, and the DTD is Apple's PropertyList-1.0.dtd.

/** A property list value as plain JS: integers beyond Number.MAX_SAFE_INTEGER come back as bigint. */
export type PlistValue = string | number | bigint | boolean | Date | Uint8Array | PlistValue[] | PlistDict;
export interface PlistDict {
  [key: string]: PlistValue;
}

export class PlistError extends Error {
  override name = 'PlistError';
}

/** Nesting deeper than this is not a disk listing: refuse rather than recurse without bound. */
const MAX_DEPTH = 64;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Parses an XML property list (`<plist version="1.0">…</plist>`) into plain JS values. */
export function parsePlist(xml: string): PlistValue {
  return new Reader(xml).document();
}

/** Parses a property list whose root must be a dict. */
export function parsePlistDict(xml: string): PlistDict {
  const v = parsePlist(xml);
  if (!isPlistDict(v)) throw new PlistError('plist: the root is not a <dict>');
  return v;
}

export function isPlistDict(v: unknown): v is PlistDict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array);
}

class Reader {
  private i = 0;
  constructor(private readonly s: string) {
    if (s.charCodeAt(0) === 0xfeff) this.i = 1; // a byte-order mark
  }

  document(): PlistValue {
    this.misc();
    if (this.s.startsWith('<?xml', this.i)) {
      const end = this.s.indexOf('?>', this.i);
      if (end < 0) this.fail('unterminated <?xml …?> declaration');
      this.i = end + 2;
    }
    this.misc();
    if (this.s.startsWith('<!DOCTYPE', this.i)) {
      const end = this.s.indexOf('>', this.i);
      if (end < 0) this.fail('unterminated <!DOCTYPE>');
      this.i = end + 1;
    }
    this.misc();
    const root = this.openTag();
    if (root.name !== 'plist') this.fail(`expected <plist>, found <${root.name}>`);
    let value: PlistValue | undefined;
    if (!root.selfClosing) {
      this.misc();
      if (!this.s.startsWith('</', this.i)) {
        value = this.value(1);
        this.misc();
      }
      this.closeTag('plist');
    }
    this.misc();
    if (this.i < this.s.length) this.fail('text after </plist>');
    if (value === undefined) this.fail('<plist> holds no value');
    return value;
  }

  private value(depth: number): PlistValue {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    const at = this.i;
    const tag = this.openTag();
    switch (tag.name) {
      case 'dict':
        return tag.selfClosing ? {} : this.dict(depth);
      case 'array':
        return tag.selfClosing ? [] : this.array(depth);
      case 'true':
      case 'false':
        if (!tag.selfClosing) this.closeTag(tag.name);
        return tag.name === 'true';
      case 'string':
        return tag.selfClosing ? '' : this.text('string');
      case 'integer':
        return this.integer(tag.selfClosing ? '' : this.text('integer'), at);
      case 'real':
        return this.real(tag.selfClosing ? '' : this.text('real'), at);
      case 'data':
        return this.data(tag.selfClosing ? '' : this.text('data'), at);
      case 'date':
        return this.date(tag.selfClosing ? '' : this.text('date'), at);
      default:
        this.i = at;
        return this.fail(`unknown element <${tag.name}>`);
    }
  }

  private dict(depth: number): PlistDict {
    // A null prototype: a key named "__proto__" or "constructor" is just a key.
    const out = Object.create(null) as PlistDict;
    for (;;) {
      this.misc();
      if (this.s.startsWith('</', this.i)) {
        this.closeTag('dict');
        return out;
      }
      const at = this.i;
      const tag = this.openTag();
      if (tag.name !== 'key') {
        this.i = at;
        this.fail(`expected <key> in <dict>, found <${tag.name}>`);
      }
      const key = tag.selfClosing ? '' : this.text('key');
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        this.i = at;
        this.fail(`duplicate key "${key}"`);
      }
      this.misc();
      if (this.s.startsWith('</', this.i)) this.fail(`key "${key}" has no value`);
      out[key] = this.value(depth + 1);
    }
  }

  private array(depth: number): PlistValue[] {
    const out: PlistValue[] = [];
    for (;;) {
      this.misc();
      if (this.s.startsWith('</', this.i)) {
        this.closeTag('array');
        return out;
      }
      out.push(this.value(depth + 1));
    }
  }

  /** Character data up to `</name>`, entities and CDATA resolved; no child elements. */
  private text(name: string): string {
    let out = '';
    for (;;) {
      const lt = this.s.indexOf('<', this.i);
      if (lt < 0) this.fail(`unterminated <${name}>`);
      out += this.entities(this.s.slice(this.i, lt));
      this.i = lt;
      if (this.s.startsWith('<![CDATA[', this.i)) {
        const end = this.s.indexOf(']]>', this.i);
        if (end < 0) this.fail('unterminated CDATA section');
        out += this.s.slice(this.i + 9, end);
        this.i = end + 3;
        continue;
      }
      if (this.s.startsWith('<!--', this.i)) {
        this.comment();
        continue;
      }
      this.closeTag(name);
      return out;
    }
  }

  private entities(raw: string): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
      if (!whole.endsWith(';')) this.fail(`"&" not followed by an entity: ${JSON.stringify(whole)}`);
      const named = ENTITIES[name];
      if (named !== undefined) return named;
      const num = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
      if (num) {
        const code = num[1] !== undefined ? parseInt(num[1], 16) : Number(num[2]);
        if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) return String.fromCodePoint(code);
      }
      return this.fail(`unknown entity &${name};`);
    });
  }

  private integer(text: string, at: number): number | bigint {
    const t = text.trim();
    const m = /^([+-]?)(?:0x([0-9a-fA-F]+)|([0-9]+))$/.exec(t);
    if (!m) {
      this.i = at;
      this.fail(`<integer> is not an integer: ${JSON.stringify(text)}`);
    }
    const big = BigInt(m[2] !== undefined ? `0x${m[2]}` : m[3]!) * (m[1] === '-' ? -1n : 1n);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  private real(text: string, at: number): number {
    const t = text.trim();
    if (/^[+-]?(?:inf(?:inity)?)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/^nan$/i.test(t)) return NaN;
    if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(t)) {
      this.i = at;
      this.fail(`<real> is not a number: ${JSON.stringify(text)}`);
    }
    return Number(t);
  }

  private data(text: string, at: number): Uint8Array {
    const b64 = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) {
      this.i = at;
      this.fail('<data> is not base64');
    }
    return new Uint8Array(Buffer.from(b64, 'base64'));
  }

  private date(text: string, at: number): Date {
    const t = text.trim();
    const d = new Date(t);
    // Apple writes ISO 8601 in UTC: 2024-05-01T12:00:00Z.
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/.test(t) || Number.isNaN(d.getTime())) {
      this.i = at;
      this.fail(`<date> is not an ISO 8601 UTC date: ${JSON.stringify(text)}`);
    }
    return d;
  }

  private openTag(): { name: string; selfClosing: boolean } {
    const m = /^<([A-Za-z][A-Za-z0-9_.-]*)((?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/.exec(
      this.s.slice(this.i, this.i + 512),
    );
    if (!m) {
      if (this.i >= this.s.length) this.fail('unexpected end of input');
      this.fail(this.s[this.i] === '<' ? 'malformed tag' : `unexpected text ${JSON.stringify(this.s.slice(this.i, this.i + 20))}`);
    }
    this.i += m[0].length;
    return { name: m[1]!, selfClosing: m[3] === '/' };
  }

  private closeTag(name: string): void {
    const m = /^<\/([A-Za-z][A-Za-z0-9_.-]*)\s*>/.exec(this.s.slice(this.i, this.i + 256));
    if (!m || m[1] !== name) this.fail(`expected </${name}>`);
    this.i += m[0].length;
  }

  /** Whitespace and comments between elements. */
  private misc(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
      if (this.s.startsWith('<!--', this.i)) this.comment();
      else return;
    }
  }

  private comment(): void {
    const end = this.s.indexOf('-->', this.i + 4);
    if (end < 0) this.fail('unterminated comment');
    this.i = end + 3;
  }

  private fail(what: string): never {
    const before = this.s.slice(0, this.i);
    const line = before.split('\n').length;
    const column = this.i - before.lastIndexOf('\n');
    throw new PlistError(`plist: ${what} (line ${line}, column ${column})`);
  }
}
