// A seeded mutator of the files a hostile user (or a disk going bad) hands DiskDial: byte flips,
// truncation, huge and non-finite numbers, wrong types, deep nesting, control and bidi
// characters, 40,000-character labels, duplicated keys, a __proto__ key, lists longer than any
// cap, nests deeper than JSON.stringify can write back (~5,000 levels). Seeded so a failure
// names the case that shows it again (test/helpers/prng.ts).

export type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

/** Text a terminal or a reader would act on: escapes, C1, NUL, bidi overrides and isolates. */
export const HOSTILE_TEXT = [
  '\u001b[2J\u001b]0;owned\u0007',
  '\u009b31m',
  '\u0000',
  '\u202eevil\u202c',
  '\u2066x\u2069',
  '\r\n',
  '\u007f',
  '\ud800',
  'x'.repeat(40_000),
];
const ODD_VALUES: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53 + 2, 1e308, -1e308, '', 'NaN', 'Infinity', '1e999', [], {}, [[]], { a: 1 }];

type Path = Array<string | number>;

/** Every path in a JSON value (objects and arrays, not into long arrays' every item). */
function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.slice(0, 8).forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(root: unknown, p: Path, value: unknown): unknown {
  if (p.length === 0) return value;
  let parent = root as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  parent[p.at(-1)!] = value;
  return root;
}

function getAt(root: unknown, p: Path): unknown {
  return p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
}

/** A nest is put in as a marker and written out as text at the end: cloning or walking a
 *  100,000-deep value would overflow the mutator's own stack. */
const NEST = /"__nest_(\d+)__"/g;
const nestText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** One structural change to a parsed document (a copy): a value of the wrong type, a number no
 *  file should hold, hostile text in a string, a deep nest, a long list, a key removed. */
function mutateValue(r: Rand, doc: unknown): unknown {
  const root = structuredClone(doc);
  const all = paths(root);
  const p = pick(r, all);
  const here = getAt(root, p);
  switch (int(r, 7)) {
    case 0:
      return setAt(root, p, pick(r, ODD_VALUES));
    case 1:
      return setAt(root, p, typeof here === 'string' ? here + pick(r, HOSTILE_TEXT) : pick(r, HOSTILE_TEXT));
    case 2:
      return setAt(root, p, `__nest_${pick(r, [64, 6_000, 20_000])}__`);
    case 3:
      return setAt(
        root,
        p,
        Array.from({ length: pick(r, [100, 2_000]) }, () => pick(r, [0, 'x', null, {}])),
      );
    case 4: {
      if (p.length === 0) return root;
      const parent = getAt(root, p.slice(0, -1));
      if (Array.isArray(parent)) parent.splice(p.at(-1) as number, 1);
      else delete (parent as Record<string, unknown>)[p.at(-1) as string];
      return root;
    }
    case 5:
      return setAt(root, p, typeof here === 'number' ? pick(r, [-here, here * 1e300, Number.MAX_SAFE_INTEGER, -0]) : 2 ** 31);
    default: {
      const target = (here && typeof here === 'object' && !Array.isArray(here) ? here : root) as Record<string, unknown>;
      if (target && typeof target === 'object')
        target[pick(r, ['__proto__', 'constructor', 'extra', 'x'.repeat(1000)])] = { polluted: true };
      return root;
    }
  }
}

/** Changes to the text itself: numbers JSON.parse turns into Infinity, a key said twice (the last
 *  one wins in JSON.parse), a cut, flipped bytes. */
function mutateText(r: Rand, text: string): Buffer {
  let t = text;
  switch (int(r, 5)) {
    case 0: {
      const nums = [...t.matchAll(/(?<=[:[,]\s*)-?\d+(\.\d+)?(e[+-]?\d+)?/g)];
      if (nums.length) {
        const m = pick(r, nums);
        t =
          t.slice(0, m.index) +
          pick(r, ['1e999', '-1e999', '0.0000e-99999', '123456789012345678901234567890']) +
          t.slice(m.index + m[0].length);
      }
      break;
    }
    case 1: {
      const keys = [...t.matchAll(/"([A-Za-z]+)"\s*:/g)];
      if (keys.length) {
        const m = pick(r, keys);
        t = t.slice(0, m.index) + `"${m[1]}": ${JSON.stringify(pick(r, ODD_VALUES))}, ` + t.slice(m.index);
      }
      break;
    }
    case 2:
      t = t.slice(0, int(r, t.length + 1));
      break;
    default:
      break;
  }
  const bytes = Buffer.from(t, 'utf8');
  for (let n = int(r, 3) === 0 ? 1 + int(r, 8) : 0; n > 0 && bytes.length; n--) {
    const at = int(r, bytes.length);
    bytes[at] = bytes[at]! ^ (1 << int(r, 8));
  }
  return bytes;
}

/** A mutated JSON document: 1–3 structural changes, then perhaps changes to its text. */
export function mutateJson(r: Rand, doc: unknown): Buffer {
  let v = doc;
  for (let n = 1 + int(r, 3); n > 0; n--) v = mutateValue(r, v);
  const text = JSON.stringify(v, null, int(r, 2) ? 2 : undefined).replace(NEST, (_, depth: string) => nestText(Number(depth)));
  return int(r, 2) ? mutateText(r, text) : Buffer.from(text, 'utf8');
}

/** A mutated line-based file (a checksum manifest): hostile names, wrong digests, a file listed
 *  twice with two digests, lines of every format, then the text changes above. */
export function mutateLines(r: Rand, text: string): Buffer {
  const lines = text.split('\n');
  for (let n = 1 + int(r, 4); n > 0; n--) {
    const i = int(r, lines.length);
    const line = lines[i] ?? '';
    const hex = line.slice(0, 64);
    switch (int(r, 8)) {
      case 0:
        lines[i] = `${hex}  ${pick(r, HOSTILE_TEXT)}`;
        break;
      case 1:
        lines.push(`${'f'.repeat(64)}  ${line.slice(66)}`);
        break;
      case 2:
        lines[i] = `SHA256 (${pick(r, HOSTILE_TEXT)}) = ${hex}`;
        break;
      case 3:
        lines[i] = `\\${hex}  a\\nb\\\\c${pick(r, ['\\', '\\x', ''])}`;
        break;
      case 4:
        lines[i] = `${'0'.repeat(pick(r, [32, 63, 65, 128, 129]))}  ${line.slice(66)}`;
        break;
      case 5:
        lines[i] = 'SHA256 (' + ') = a'.repeat(20_000);
        break;
      case 6:
        lines.splice(i, 0, ...Array.from({ length: 1_000 }, (_, k) => `${hex}  dup${k % 50}`));
        break;
      default:
        lines[i] = line + '\r';
    }
  }
  return mutateText(r, lines.join('\n'));
}
