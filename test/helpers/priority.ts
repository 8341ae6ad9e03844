// A test whose figure depends on CPU time — a FUSE client's throughput, a cipher's share of a core,
// frames on time — raises its priority, so that other work on the machine (CI's other chains, a
// loaded machine) cannot starve the measurement: at nice -10 the test's threads weigh ~9× a
// nice-0 thread in the kernel's scheduler. It controls what competes for the CPU, not the I/O.
import { readdirSync } from 'node:fs';
import os from 'node:os';

/** Nice `value` for every thread of this process now and (inherited) every thread and child it
 *  makes later: Linux keeps nice per thread. Root only; throws under CI=true if it cannot. */
export function measureFirst(value = -10): void {
  try {
    for (const tid of readdirSync('/proc/self/task')) os.setPriority(Number(tid), value);
  } catch (e) {
    if (process.env.CI === 'true') throw new Error(`could not raise the test's CPU priority (nice ${value}): ${String(e)}`, { cause: e });
  }
}
