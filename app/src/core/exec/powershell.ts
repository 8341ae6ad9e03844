// What link detection and the Windows wizard share about PowerShell: how it is started (argv,
// never a shell string), the shape ConvertTo-Json writes, and the storage bus numbers.
import { asObject, parseJson, type Json } from './json.js';

/** argv for one PowerShell script, without the user's profile or any prompt. */
export function powershell(script: string): string[] {
  return ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', script];
}

/** ConvertTo-Json output → its objects: it writes an array, one object for a single row, and
 *  nothing for none. Undefined when the output is not JSON. */
export function jsonRows(output: string): Json[] | undefined {
  if (!output.trim()) return [];
  const parsed = parseJson(output.trim());
  if (parsed === undefined) return undefined;
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map(asObject).filter((x): x is Json => x !== undefined);
}

// MSFT_Disk/MSFT_PhysicalDisk.BusType: ConvertTo-Json writes the CIM number, a formatted pipeline
// or Select-Object the name, so both are accepted.
const BUS_NUMBER: Record<number, string> = {
  0: 'Unknown',
  1: 'SCSI',
  2: 'ATAPI',
  3: 'ATA',
  4: '1394',
  5: 'SSA',
  6: 'Fibre Channel',
  7: 'USB',
  8: 'RAID',
  9: 'iSCSI',
  10: 'SAS',
  11: 'SATA',
  12: 'SD',
  13: 'MMC',
  14: 'Virtual',
  15: 'File Backed Virtual',
  16: 'Storage Spaces',
  17: 'NVMe',
};

/** The bus's name from a BusType value (number or name); 'Unknown' when neither. */
export function busTypeName(v: unknown): string {
  if (typeof v === 'number') return BUS_NUMBER[v] ?? 'Unknown';
  return typeof v === 'string' && v.trim() ? v.trim() : 'Unknown';
}
