// What else the machine did while a test ran: CPU time of DiskDial's own processes (this one and
// its children, the engine host) against every other program's, the whole machine's busy CPU
// time (/proc/stat through os.cpus(): whether any was left over) and the 1-minute load average,
// sampled at each timed step's start and end (never during it, so a paced test is not disturbed).
// model/verdict/busy.ts judges the figures. On Linux each process is read from /proc, and kernel
// threads are left out: the loop driver, FUSE's and the block layer's workers do the test's own
// I/O. Elsewhere Node gives the machine's CPU times and this process's only (an engine host child
// then counts among the others).
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { MachineLoad } from '../model/result.js';

// USER_HZ: /proc's tick is 100 per second on every Linux ABI Node runs on.
const TICKS_PER_SECOND = 100;
// PF_KTHREAD in /proc/<pid>/stat's flags: a kernel thread.
const PF_KTHREAD = 0x00200000;

interface Proc {
  ppid: number;
  ticks: number;
  kernel: boolean;
}

/** Every process's parent and CPU ticks (user + system), from /proc/<pid>/stat. */
function procTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // "pid (comm) S ppid …": the fields follow the last ')' (comm may hold spaces and parentheses).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(f[1]);
    const flags = Number(f[6]);
    table.set(pid, { ppid, ticks: Number(f[11]) + Number(f[12]), kernel: (flags & PF_KTHREAD) !== 0 || pid === 2 || ppid === 2 });
  }
  return table;
}

/** This process and its descendants in a table. */
function ownPids(table: ReadonlyMap<number, Proc>): Set<number> {
  const own = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of table) {
      if (!own.has(pid) && own.has(p.ppid)) {
        own.add(pid);
        grew = true;
      }
    }
  }
  return own;
}

interface Sample {
  at: number;
  load: number;
  /** The machine's busy CPU milliseconds, all cores (user, nice, system, irq; not idle or I/O wait). */
  machineMs: number;
  procs?: Map<number, Proc>;
  /** Without /proc: this process's CPU microseconds. */
  ownUs?: number;
}

const hasProc = (): boolean => process.platform === 'linux';

function sample(): Sample {
  const machineMs = os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  const s: Sample = { at: performance.now(), load: os.loadavg()[0] ?? 0, machineMs };
  if (hasProc()) {
    s.procs = procTable();
  } else {
    const u = process.cpuUsage();
    s.ownUs = u.user + u.system;
  }
  return s;
}

/** Own, others' and the whole machine's CPU seconds between two samples. */
function cpuBetween(a: Sample, b: Sample): { own: number; others: number; machine: number } {
  const machine = Math.max(0, b.machineMs - a.machineMs) / 1e3;
  if (a.procs && b.procs) {
    const own = ownPids(b.procs);
    let ownTicks = 0;
    let otherTicks = 0;
    for (const [pid, p] of b.procs) {
      if (p.kernel) continue;
      // A process new since the first sample started in between: all its time is in the window.
      const d = p.ticks - (a.procs.get(pid)?.ticks ?? 0);
      if (d <= 0) continue;
      if (own.has(pid)) ownTicks += d;
      else otherTicks += d;
    }
    return { own: ownTicks / TICKS_PER_SECOND, others: otherTicks / TICKS_PER_SECOND, machine };
  }
  const own = ((b.ownUs ?? 0) - (a.ownUs ?? 0)) / 1e6;
  return { own, others: Math.max(0, machine - own), machine };
}

export interface LoadMeter {
  /** Runs one timed step, sampling before and after it; `threads` is the engine's for the step. */
  measure<T>(threads: number, work: () => Promise<T>): Promise<T>;
  /** The figures over every measured step; undefined when none ran. */
  result(): MachineLoad | undefined;
}

export function loadMeter(): LoadMeter {
  const total: MachineLoad = {
    cores: os.availableParallelism(),
    wallSeconds: 0,
    ownCpuSeconds: 0,
    othersCpuSeconds: 0,
    machineCpuSeconds: 0,
    loadMax: 0,
    ownThreads: 0,
    source: hasProc() ? 'proc' : 'node',
  };
  return {
    async measure(threads, work) {
      const a = sample();
      try {
        return await work();
      } finally {
        const b = sample();
        const cpu = cpuBetween(a, b);
        total.wallSeconds += (b.at - a.at) / 1000;
        total.ownCpuSeconds += cpu.own;
        total.othersCpuSeconds += cpu.others;
        total.machineCpuSeconds += cpu.machine;
        total.loadMax = Math.max(total.loadMax, a.load, b.load);
        // The engine's I/O threads and the runner's own.
        total.ownThreads = Math.max(total.ownThreads, threads + 1);
      }
    },
    result: () => {
      if (!(total.wallSeconds > 0)) return undefined;
      const ms = (x: number): number => Math.round(x * 1000) / 1000;
      return {
        ...total,
        wallSeconds: ms(total.wallSeconds),
        ownCpuSeconds: ms(total.ownCpuSeconds),
        othersCpuSeconds: ms(total.othersCpuSeconds),
        machineCpuSeconds: ms(total.machineCpuSeconds),
        loadMax: ms(total.loadMax),
      };
    },
  };
}
