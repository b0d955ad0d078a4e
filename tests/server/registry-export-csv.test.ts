// A registry account's CSV export read into blocks (modules/registry/export-csv.ts): as registries write the
// files (byte-order mark, CRLF, quoted fields, thousands separators, their own column names in their own
// order), and refused naming the line when a row cannot be read.
import { describe, expect, it } from 'vitest';
import { parseRegistryExport, RegistryExportError } from '../../src/server/modules/registry/export-csv';

describe('registry account exports', () => {
  it("reads Verra's columns, with the status told by the retirement date alone", () => {
    const csv =
      '\uFEFF"Issuance Date","Vintage Start","Vintage End","ID","Name","Quantity Issued","Serial Number","Retirement/Cancellation Date","Retirement Details"\r\n' +
      '"20/07/2021","01/01/2008","31/12/2008","191","Wind, Inner Mongolia","77,453","12082-384723093-384800545-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0","",""\r\n' +
      '"20/07/2021","01/01/2008","31/12/2008","191","Wind, Inner Mongolia","10","12082-1-10-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0","3/12/2026","For Example Pte Ltd"\r\n';
    expect(parseRegistryExport(csv)).toEqual([
      { line: 2, serial_range: '12082-384723093-384800545-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0', quantity: 77_453, status: 'held' },
      { line: 3, serial_range: '12082-1-10-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0', quantity: 10, status: 'retired', date: '2026-12-03' },
    ]);
  });

  it('reads a status column, a reference and ISO dates in any column order', () => {
    const csv = [
      'Status,Retirement Reference,Retirement Date,Serial Numbers,Quantity',
      'Active,,,"CAR-1-US-293-1-120-CA-2006-102-1 to 29251","29,251"',
      'Retired,RET-2026-0042,2026-12-03T10:00:00Z,"CAR-1-US-293-1-120-CA-2006-102-29252 to 29300",49',
      'Cancelled,C-7,2026-12-04,ACR-US-192-2010-203-1-5000,5000',
      ',,,,',
    ].join('\n');
    expect(parseRegistryExport(csv)).toEqual([
      { line: 2, serial_range: 'CAR-1-US-293-1-120-CA-2006-102-1 to 29251', quantity: 29_251, status: 'held' },
      { line: 3, serial_range: 'CAR-1-US-293-1-120-CA-2006-102-29252 to 29300', quantity: 49, status: 'retired', reference: 'RET-2026-0042', date: '2026-12-03' },
      { line: 4, serial_range: 'ACR-US-192-2010-203-1-5000', quantity: 5000, status: 'retired', reference: 'C-7', date: '2026-12-04' },
    ]);
  });

  const BAD: [string, string][] = [
    ['', 'the file is empty'],
    ['Name,Quantity\nX,1\n', 'line 1: no serial number column'],
    ['Serial Number,Name\nACR-US-192-2010-203-1-5000,X\n', 'line 1: no quantity column'],
    ['Serial Number,Quantity\n,5\n', 'line 2: serial number is empty'],
    ['Serial Number,Quantity\nACR-US-192-2010-203-1-5000,5.5\n', 'line 2: quantity "5.5" is not a whole number'],
    ['Serial Number,Quantity,Status\nACR-US-192-2010-203-1-5000,5000,Pending transfer\n', 'line 2: status "Pending transfer" is neither held nor retired'],
    ['Serial Number,Quantity,Retirement Date\nACR-US-192-2010-203-1-5000,5000,yesterday\n', 'line 2: retirement date "yesterday" is not a date'],
    ['Serial Number,Quantity\n"ACR-US-192-2010-203-1-5000,5000\n', 'not a readable CSV file'],
  ];
  for (const [csv, message] of BAD) {
    it(`refuses: ${message}`, () => {
      expect(() => parseRegistryExport(csv)).toThrow(RegistryExportError);
      expect(() => parseRegistryExport(csv)).toThrow(message);
    });
  }
});
