// What `diskdial --help` and `diskdial <command> --help` print. Each command's text is written
// once here; the full help is those texts in a row. The tests under `run --help`, and the flags
// only some of them take, come from the kinds registry, so a new kind's flags show up by itself.
import { wrapText } from '../model/report/formats/html-report.js';
import { RUNS_HINT } from '../model/verdict/compare-words.js';
import { KIND_FLAGS, RUN_KINDS, type KindFlag } from '../model/kinds/registry.js';
import { wizardPlatformsText } from '../core/wizard/platforms.js';
import { PROTOCOL_IDS } from '../model/wizard/protocols.js';
import { WIZARD_PLAN_KINDS, wizardKindOf } from '../model/wizard/plan-kinds.js';
import { UsageError } from './usage-error.js';

/** The tests as people know them (a kind may bring its own summary; else its name). */
const KIND_TEXT: Record<string, string> = {
  quick: `Blackmagic-style: write then read one stress file, 1 MiB blocks, QD8
(--size: Blackmagic offers 1, 2, 3 or 5 GB; default 1GB). --loop repeats it
until Ctrl-C, as Blackmagic's Start does`,
  cdm: `CrystalDiskMark grid, 5 s per test, reads then writes (--size 16MiB-64GiB,
default 1GiB). --preset default: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
RND4K Q1T1; nvme: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1;
peak: SEQ1M Q8T1, RND4K Q32T1; realworld: SEQ1M Q1T1, RND4K Q1T1.
--mode readwrite (default), read, write, mix (70/30), all`,
  files: `Stibium-style many-file test: files of log-uniform sizes written in
random order, then read in random order. --preset quick (40 files,
2-600 MB, ~5 GB; default), standard (160 files, 2 MB-2 GB, ~53 GB),
or custom with --files N --min-size SIZE --max-size SIZE [--seed N]`,
  'seq-write': 'sequential write (default 1MiB blocks, QD8)',
  'seq-read': 'sequential read',
  'rand-read': 'random read (default 4KiB blocks, QD32, 5 s)',
  'rand-write': 'random write',
  mix: 'random 70% read / 30% write',
};

/** Flags only some kinds take: the argument and what it does (a kind may bring its own words). */
const FLAG_TEXT: Partial<Record<KindFlag, string>> = {
  preset: "NAME       the test's profile:",
  mode: 'MODE         readwrite, read, write, mix, all',
  rwmixread: 'N       mixed tests: percentage of reads (default 70)',
  reserve: `SIZE      free space to leave untouched
(default the larger of 512MiB and 5% of the volume)`,
  files: 'N          how many files',
  'min-size': 'SIZE   the smallest file (default 2MB)',
  'max-size': 'SIZE   the largest file (default 2GB; quick 600MB)',
  seed: 'N           draw a different set (same seed, same set)',
  'file-size': 'SIZE    each file, 4KiB to 1MiB (default 4KiB)',
};

const INDENT = ' '.repeat(25);

/** "  --flag ARG  text" with its continuation lines under the text. */
function option(head: string, text: string): string {
  const [first = '', ...more] = text.split('\n');
  const lead = `      ${head}`;
  const line = lead.length < 25 ? `${lead.padEnd(25)}${first}` : `${lead}\n${INDENT}${first}`;
  return [line, ...more.map((m) => `${INDENT}${m}`)].join('\n');
}

function testsText(): string {
  const lines = RUN_KINDS.map((k) => {
    const [first = '', ...more] = (KIND_TEXT[k.id] ?? k.cli?.summary ?? k.name).split('\n');
    return [`  ${k.id.padEnd(12)}${first}`, ...more.map((m) => `              ${m}`)].join('\n');
  });
  return `Tests (--test):\n${lines.join('\n')}\n`;
}

/** The flags the kinds claim, each with the tests that take it and their presets. */
function kindOptionsText(): string {
  const out = [...KIND_FLAGS].map(([flag, { kinds }]) => {
    const own = RUN_KINDS.find((k) => kinds.includes(k.id) && k.cli?.flagHelp?.[flag])?.cli?.flagHelp?.[flag];
    // A flag several kinds take with different bounds: each kind's own, after the shared words.
    const ranges = RUN_KINDS.filter((k) => kinds.includes(k.id) && k.cli?.flagRange?.[flag]).map(
      (k) => `${k.id}: ${k.cli?.flagRange?.[flag]}`,
    );
    const said = own ?? FLAG_TEXT[flag] ?? 'VALUE  see docs/';
    const [arg = '', ...words] = (ranges.length ? `${said} (${ranges.join('; ')})` : said).split(/ {2,}/);
    const presets =
      flag === 'preset'
        ? kinds.map((id) => `${id}: ${(RUN_KINDS.find((k) => k.id === id)?.cli?.presets ?? []).join(', ')}`).join('\n')
        : '';
    const text = [words.join(' ').replace(/\s*\n\s*/g, '\n'), presets].filter(Boolean).join('\n');
    return option(`--${flag} ${arg}`, `${text}\n(--test ${kinds.join(', ')})`);
  });
  return `Options of some tests only:\n${out.join('\n')}\n`;
}

const RUN_OPTIONS = `Options:
  -t, --test NAME        one of the tests above (default quick)
  -s, --size SIZE        test file size (default 1GB for quick, 1GiB otherwise)
      --bs SIZE          block size, a power of two from 512 to 128MiB
      --qd N             outstanding I/Os per thread, 1-64
      --threads N        worker threads, 1-64
  -n, --runs N           repeat the whole test N times (default 1, at most 100); the
                         report gives mean, spread and best of the runs. 0: --loop
      --loop             continuous mode: run the test again and again, one line per
                         cycle, until Ctrl-C; the cycles are saved as the runs of one
                         result (Ctrl-C twice: quit without saving)
      --rest TIME        rest between runs so a drive's cache can drain: minutes,
                         or with a unit: 90s, 5m (default 0)
      --interval S       seconds to pause between the tests of a run (default 0)
      --pattern P        random (default) or zeros
      --seconds S        measure each test for S seconds (looping over the file)
      --warmup S         seconds of I/O before measuring (default 0)
      --cache MODE       auto (default: uncached, falls back when refused),
                         buffered-flushed, buffered
      --label TEXT       a name to store with the result
      --json             print the result document as JSON on stdout
      --no-save          do not keep the result in history
      --wait             when another DiskDial test is running on the drive, wait
                         for it to end (default: fail with exit 1)
`;

const HASH_TEXT = `Hash test (hash): four rates for one file — uncached read alone, read + hash
pipelined (reading and hashing on two threads), hashing in memory on one core, and
on every core — with the digest and a verdict: which ceiling held read + hash back.
      --algo A           sha256 or sha512 (default: the --verify digest's, else sha256)
      --verify X         an expected digest (hex), or a .sha256 / .sha512 / SHA256SUMS
                         file with a line for the file; exit 1 when it does not match
      --size SIZE        with a folder: write a test file of SIZE there (removed after)
      --threads N        streams for the all-cores rate (default: the CPUs available)
      --cache MODE       as for run: auto (default: uncached, falls back when refused),
                         buffered-flushed, buffered; the result records the mode achieved
      --label TEXT, --json, --no-save, --wait   as for run
  The verdict names the one ceiling within 15 % of read + hash: reading alone (the disk),
  hashing on one core, the link, and on an encrypted folder the cipher; else no single limit.
`;

const CHECK_TEXT = `Folder check (check): every regular file under <folder> hashed with parallel streams
(uncached reads, the platform's SHA-256/512), its manifest written or re-checked: unchanged,
changed, missing and new files, files/s, GB/s, and which known ceiling held it back.
The files are only read; the manifest is the one thing written (atomically: Ctrl-C leaves
the old one as it was). Symbolic links are not followed; FIFOs and devices are skipped.
      --manifest FILE    the manifest (default: SHA256SUMS at the folder's top, or the
                         SHA512SUMS / MD5SUMS there is); names in it are relative to <folder>
      --algo A           sha256, sha512 or md5 (default: the manifest's, else sha256;
                         md5 reads through the page cache with Node's crypto)
      --streams N        files hashed at once (default: 1 on a spinning disk, else one
                         per CPU)
      --cache MODE       as for run: auto (default), buffered-flushed, buffered (sha256
                         and sha512; the result records the mode achieved)
      --verify-only      re-check only; fail (exit 2) when there is no manifest
      --update           re-check, then rewrite the manifest to what is there now
      --label TEXT, --json, --no-save, --wait   as for run
  Reads sha256sum/sha512sum/md5sum and shasum -a 256/512 manifests (* binary marks and
  \\-escaped names too) and the BSD "SHA256 (name) = HEX" form.
  Verdict: intact only when every listed file is unchanged ("All N files unchanged.");
  any changed, missing, unreadable or new file: "Failed: …" with the counts.
  Exit codes: 0 intact (or a manifest just written of every file), 1 failed, 2 bad input.
`;

const CIPHER_TEXT = `Cipher ceiling (cipher): how fast this machine encrypts from memory — AES-256-XTS
(the disk mode of APFS, BitLocker, fscrypt and LUKS; a new tweak every 4096 B, as
fscrypt) and AES-256-GCM, on one core and on every core, with the platform's own crypto
(OpenSSL, CommonCrypto: XTS only, CNG). On Linux also the kernel's xts(aes) driver from
/proc/crypto (software or hardware AES) and, where the kernel allows (AF_ALG, or
cryptsetup), its own rate. The wizard measures it once per plan with an encrypted format
and its report says whether encryption is what holds that format back.
      --seconds N        seconds per measurement (default 1)
      --threads N        streams for the all-cores rate (default: the CPUs available)
      --label TEXT, --json, --no-save   as for run
`;

const SERVE_TEXT = `Browser mode (serve):
  -p, --port N           port on 127.0.0.1 (default: a free one). Open the printed
                         URL; it carries a one-time token, and only pages from that
                         address may use it. Ctrl-C stops it and any running test.
      --allow-erase      let the format-and-compare wizard erase disks from the page
                         (without it, the wizard's erase steps are refused)
`;

const RESULT_REF = `  An <id> may be shortened to its first 8 characters; <file> is an exported .json.
`;

const SAVED = {
  history: `  diskdial history [--json] [--search TEXT] [--kind K] [--drive TEXT] [--since DATE]
                  [--sort date|name|figure] [--reverse] [--limit N] [--offset N]
                                 list saved results, newest first
      --json             the list as one JSON document (with the total and every drive)
      --search TEXT      only results whose name, label, test, drive, volume, file system
                         or id holds every word of TEXT (any case)
      --kind K           only this test (quick, cdm, sustained, files, hash, …)
      --drive TEXT       only drives whose name or volume contains TEXT
      --since DATE       only results started on or after DATE (2026-11-01, UTC) or a
                         date and time (2026-11-01T14:30Z)
      --sort KEY         date (newest first), name (A to Z) or figure (fastest first)
      --reverse          the other way round
      --limit N          N results only (a page)
      --offset N         skip the first N (the next page: --offset 50 --limit 50)
  diskdial history label <id> <text>   name a result ("" removes the name)
  diskdial history delete <id>...      delete saved results
  Results are kept in $DISKDIAL_HOME/results, else ~/.local/share/diskdial/results
  (macOS: ~/Library/Application Support/DiskDial, Windows: %APPDATA%\\DiskDial).
`,
  export: `  diskdial export <id|file>... --format md|txt|csv|json|html [--out FILE]
                                 one result, or several side by side (at most 20)
  -f, --format F         md, txt (CrystalDiskMark's layout), csv, json, html
                         (default: --out's extension)
  -o, --out FILE         write FILE instead of stdout
      --baseline ID      the reference of a comparison (default the first)
      --fps N            a Quick Test's "Will it work?" table at N fps (default 29.97)
`,
  share: `  diskdial share <id|file> [--out card.png|card.svg] [--scale N]
                                 the result card with its method printed on it
  -o, --out FILE         .png or .svg (default: a name from the result, here)
      --scale N          PNG pixels per card unit, 1-4 (default 2)
`,
  import: `  diskdial import <file>...      add results exported on another machine
`,
} as const;

/** The named protocols in a few words each; the others are a kind's or the grid's name alone. */
const PROTOCOL_TEXT: Partial<Record<string, string>> = {
  blackmagic: '1 GB + 5 GB × 5',
  'stibium-standard': '160 files, 2 MB–2 GB, 53 GB; scaled to the disk when it does not fit',
  'stibium-quick': '40 files, 5 GB',
  'write-only': '1 GB + 5 GB, nothing read back',
};
const protocolsText = (): string => PROTOCOL_IDS.map((id) => (PROTOCOL_TEXT[id] ? `${id} (${PROTOCOL_TEXT[id]})` : id)).join(', ');

/** The wizard's own plans; a kind's plan says what its registry entry's wizard hook says. */
const PLAN_TEXT: Partial<Record<string, string>> = {
  quick: 'the Quick Test at each --size',
  cdm: 'the CrystalDiskMark grid',
  files: 'the many-file test',
  write: 'a write only at each --size',
  hash: 'the Hash test on a file of each --size',
};
const plansText = (): string =>
  WIZARD_PLAN_KINDS.map((id) => `${id}${id === 'quick' ? ' (default)' : ''}: ${PLAN_TEXT[id] ?? wizardKindOf(id)?.wizard.what}`).join('; ');

/** Text in the compare help's right-hand column (from column 34, to column 92 at most). */
const wizardColumn = (text: string): string =>
  wrapText(text, 59, Number.MAX_SAFE_INTEGER)
    .map((l) => `${' '.repeat(33)}${l}`)
    .join('\n');

const WIZARD = {
  disks: `  diskdial disks [--json] [--internal]   whole disks: which may be erased, and the formats
                                 this machine can make
      --json             the list as one JSON document
      --internal         include internal (non-system) disks
`,
  compare: `  diskdial compare --device DEV --formats ext4,xfs,btrfs --confirm NAME [options]
      --protocol NAME            a plan named after the protocol it reproduces:
${wizardColumn(protocolsText())}
      --plan KIND                ${wizardColumn(plansText()).trimStart()}
      --files-set quick|standard|custom   files: the set (default quick)
      --files N --min-size S --max-size S  files: a custom set (any of them makes it custom)
      --common-mode              also measure every format through the page cache, flushed
                                 (as applications see it), so all compare on like rows; on
                                 by default with a format that cannot do direct I/O (fscrypt)
      --no-common-mode           leave that pass out
      --size 1GB,5GB             quick, write, hash: sizes (default 1GB,5GB; hash 1GB)
      --runs N                   runs per format and size (default 5)
      --rest MIN                 rest between runs, minutes or 90s/5m (default 5)
      --final FMT                the format the disk is left in (default the first)
      --label TEXT               a name for the saved results
      --internal                 allow an internal (non-system) disk
      --report FILE              also write the report (.md, .csv, .json, .html, .txt)
      --json                     print the plan, the report and the results as JSON
    NAME is the disk's name as \`diskdial disks\` shows it (its model, or e.g. loop7):
    nothing is erased unless it matches. A disk image works: losetup -fP --show disk.img
  diskdial compare --plans       plans that did not finish (a crash, a pulled disk, Ctrl-C)
  diskdial compare --resume PLAN [--confirm NAME]   go on from the first unfinished format;
                                 shows the disk there now; --confirm is needed again unless
                                 the disk has a serial, a WWN or a partition table DiskDial wrote
`,
  report: `  diskdial report <id|file>... [--format md|csv|json|html|txt] [--out FILE] [--baseline KEY]
                 [--fps N]       the comparison report (format × read/write × size) of
                                 saved results: a wizard's, or any side by side (default md),
                                 with each row's "Will it work?" verdicts at N fps (29.97)
`,
} as const;

const CAMPAIGN = `  diskdial campaign <dir> --setups "A,B,…" [--plan quick,cdm,…] [run options]
                                 the same tests on each setup you name, in turns: it waits
                                 while you change the cable, port or network, then reports
                                 every setup side by side (nothing is erased)
      --setups LIST      two or more names, comma-separated: "GigE,Wi-Fi"
      --plan TESTS       the tests each setup runs, comma-separated (default quick);
                         any --test kind of diskdial run, each with its own options
                         after colons: "quick:size=1GB,cdm:preset=nvme:runs=3";
                         a backslash keeps a comma, colon or = in a value (a\\,b)
      --report FILE      also write the report (.md, .csv, .json, .html, .txt)
      --json             print the campaign, the report and the results as JSON
    Other options (--runs, --size, --seconds, --rest…) are diskdial run's, for every test
    that takes them; a test's own options in --plan override them for that test. Every
    option of every test is checked before the first test runs.
  diskdial campaign --list       campaigns that did not finish
  diskdial campaign --resume ID  go on from the first unfinished test (asks for its setup first)
`;

/** Each whole-disk command (a kind's `wholeDevice` hook): its usage and options. */
const DEVICE_TOPICS: Record<string, Topic> = Object.fromEntries(
  RUN_KINDS.flatMap((k) =>
    k.wholeDevice
      ? [
          [
            k.wholeDevice.command,
            {
              usage: `diskdial ${k.wholeDevice.command} --device DEV --confirm NAME [options]
                                 ${k.wholeDevice.usage}
      --device DEV       the whole disk (diskdial disks lists them); never the system's, nor one
                         in use (mounted, swap, RAID, LVM): the wizard's rules
      --confirm NAME     the disk's name as diskdial disks shows it
      --internal         allow an internal (non-system) disk
      --size S           only the first S bytes of the disk
      --label TEXT       a label kept with the result
      --json             print the result document as JSON
      --no-save          do not save the result to history
      --wait             wait for another DiskDial test on the disk to end
  Ctrl-C stops it and keeps what was proven so far.
`,
              body: () => '',
              examples: k.wholeDevice.examples,
            },
          ],
        ]
      : [],
  ),
);

const WIZARD_HEAD = `Format and compare (${wizardPlatformsText()}):
  erases the whole disk, every format in turn
`;

const FOOTER = `Sizes: 4KiB, 512MiB, 1GiB are binary; 1GB, 500MB are decimal (10^9, 10^6);
4k, 1M, 1G without B are binary, as in fio and dd. Speeds are MB/s (10^6 bytes/s).

Test files go in one hidden folder (.diskdial-*) inside <dir> and are removed when the
test ends, fails or is cancelled (Ctrl-C). Exit codes: 0 ok, 1 failed, 2 bad input,
130 cancelled.
`;

interface Topic {
  usage: string;
  body: () => string;
  examples: readonly string[];
  footer?: boolean;
}

const TOPICS: Record<string, Topic> = {
  run: {
    usage: 'diskdial run <dir> [options]   test the disk holding folder <dir>',
    body: () => `${testsText()}\n${RUN_OPTIONS}\n${kindOptionsText()}`,
    examples: [
      'diskdial run /media/me/SSD                      the Quick Test, 1 GB',
      'diskdial run /media/me/SSD --test cdm --preset nvme --runs 3',
      'diskdial run /media/me/SSD --loop --size 5GB     until Ctrl-C, saved as one result',
    ],
    footer: true,
  },
  hash: {
    usage: `diskdial hash <file> [options] how fast a file streams in and gets its SHA-256/512:
                                 disk-bound or CPU-bound? (the file is only read)
  diskdial hash <dir> --size S   the same on a test file of size S written in <dir>`,
    body: () => HASH_TEXT,
    examples: ['diskdial hash ~/Downloads/debian.iso --verify SHA256SUMS', 'diskdial hash /media/me/SSD --size 4GiB --algo sha512'],
  },
  check: {
    usage: `diskdial check <folder> [options]  hash every file, write or re-check its manifest
                                 (SHA256SUMS, as sha256sum -c reads it)`,
    body: () => CHECK_TEXT,
    examples: [
      'diskdial check /media/me/CARD                  writes /media/me/CARD/SHA256SUMS, then re-checks',
      'diskdial check ~/Photos --manifest ~/photos.sha512 --algo sha512 --streams 4',
      'diskdial check ~/Downloads/iso --verify-only --json',
    ],
  },
  cipher: {
    usage: `diskdial cipher [options]        how fast this machine encrypts: the ceiling of an
                                 encrypted disk (no disk is touched)`,
    body: () => CIPHER_TEXT,
    examples: ['diskdial cipher', 'diskdial cipher --seconds 3 --json'],
  },
  serve: {
    usage: `diskdial serve [--port N] [--allow-erase]
                                 the DiskDial app in your browser, on this machine only`,
    body: () => SERVE_TEXT,
    examples: ['diskdial serve', 'diskdial serve --port 8080'],
  },
  history: {
    usage: SAVED.history.trimStart(),
    body: () => RESULT_REF,
    examples: [
      'diskdial history --kind quick --limit 5',
      'diskdial history --search "samsung hub" --since 2026-11-01',
      'diskdial history label 1a2b3c4d "Through the hub"',
    ],
  },
  export: {
    usage: SAVED.export.trimStart(),
    body: () => RESULT_REF,
    examples: ['diskdial export 1a2b3c4d --format md', 'diskdial export 1a2b3c4d 5e6f7a8b --out compare.html'],
  },
  share: {
    usage: SAVED.share.trimStart(),
    body: () => RESULT_REF,
    examples: ['diskdial share 1a2b3c4d', 'diskdial share 1a2b3c4d --out card.svg'],
  },
  import: {
    usage: SAVED.import.trimStart(),
    body: () => '  <file> is a .json exported by diskdial export (one result or several).\n',
    examples: ['diskdial import ~/Downloads/diskdial-quick-2026-11-22.json'],
  },
  disks: {
    usage: WIZARD.disks.trimStart(),
    body: () => WIZARD_HEAD,
    examples: ['diskdial disks', 'diskdial disks --json --internal'],
  },
  compare: {
    usage: WIZARD.compare.trimStart(),
    body: () => WIZARD_HEAD,
    examples: [
      'diskdial compare --device /dev/sdb --formats ext4,exfat --confirm "Samsung T7" --runs 3',
      'diskdial compare --resume 1a2b3c4d',
    ],
  },
  campaign: {
    usage: CAMPAIGN.trimStart(),
    body: () =>
      `  The report has a row per setup.\n${wrapText(RUNS_HINT, 78, 4)
        .map((l) => `  ${l}\n`)
        .join('')}`,
    examples: [
      'diskdial campaign /Volumes/NAS --setups "GigE,Wi-Fi" --plan quick,sweep --runs 3',
      'diskdial campaign /Volumes/T7 --setups "Dock,Hub" --plan "quick:size=1GB,cdm:preset=nvme,files"',
      'diskdial campaign --resume 1a2b3c4d',
    ],
  },
  report: {
    usage: WIZARD.report.trimStart(),
    body: () => RESULT_REF,
    examples: ['diskdial report 1a2b3c4d 5e6f7a8b --format html --out report.html'],
  },
  ...DEVICE_TOPICS,
};

/** Every command with a help of its own, in the order the full help lists them. */
export const HELP_TOPICS = Object.keys(TOPICS) as readonly string[];

/** One command's help: its usage, options with defaults and units, and examples. Unknown: a
 *  usage error naming the commands there are. */
export function commandHelp(name: string): string {
  const t = TOPICS[name];
  if (!t) throw new UsageError(`no command "${name}"; commands: ${HELP_TOPICS.join(', ')} (see diskdial --help)`);
  const examples = t.examples.map((e) => `  ${e}`).join('\n');
  return `Usage: ${t.usage.trimEnd()}\n\n${t.body()}\nExamples:\n${examples}\n${t.footer ? `\n${FOOTER}` : ''}`;
}

/** The full help: every command's synopsis, then each command's options. */
export function fullHelp(): string {
  return `diskdial — honest disk speed tests (uncached, timed I/O)

Usage:
  ${TOPICS.run!.usage}
  ${TOPICS.hash!.usage}
  ${TOPICS.check!.usage}
  ${TOPICS.cipher!.usage}
  ${TOPICS.serve!.usage}
  diskdial <command> --help      that command's options and examples
                                 (also: diskdial help <command>)
  diskdial --help                show this help
  diskdial --version             show the app and engine versions

${testsText()}
${RUN_OPTIONS}
${kindOptionsText()}
${HASH_TEXT}
${CHECK_TEXT}
${CIPHER_TEXT}
Saved results (every finished run and hash is saved; --no-save skips it):
${Object.values(SAVED).join('')}${RESULT_REF}
${WIZARD_HEAD}${Object.values(WIZARD).join('')}
Whole disks (everything on the disk is overwritten; same rules as the wizard's erase):
${Object.values(DEVICE_TOPICS)
  .map((t) => `  ${t.usage}`)
  .join('')}
Compare setups (any folder; nothing is erased):
${CAMPAIGN}
${SERVE_TEXT}
${FOOTER}`;
}
