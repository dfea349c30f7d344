import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

/**
 * The entry names of a zip file (a .vsix is one), read from its central directory. Just enough of the format
 * (APPNOTE 4.3.12/4.3.16; no zip64, which a .vsix under 4 GiB does not need) to check what a package holds without
 * an unzip tool or a dependency.
 */
export function zipEntryNames(file: string): string[] {
  const data = fs.readFileSync(file);
  const end = findEndOfCentralDirectory(data, file);
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > data.length || data.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`${file}: central directory entry ${i + 1} of ${count} is damaged (at byte ${offset})`);
    }
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    names.push(data.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Reads one stored or deflated entry's content (for checking the packaged manifest). */
export function zipEntryText(file: string, name: string): string {
  const data = fs.readFileSync(file);
  const end = findEndOfCentralDirectory(data, file);
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = data.readUInt16LE(offset + 10);
    const compressedSize = data.readUInt32LE(offset + 20);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    const localHeader = data.readUInt32LE(offset + 42);
    if (data.toString('utf8', offset + 46, offset + 46 + nameLength) === name) {
      const localName = data.readUInt16LE(localHeader + 26);
      const localExtra = data.readUInt16LE(localHeader + 28);
      const start = localHeader + 30 + localName + localExtra;
      const body = data.subarray(start, start + compressedSize);
      if (method === 0) {
        return body.toString('utf8');
      }
      if (method === 8) {
        return zlib.inflateRawSync(body).toString('utf8');
      }
      throw new Error(`${file}: ${name} uses compression method ${method}, which this reader does not know`);
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${file} has no entry ${name}`);
}

function findEndOfCentralDirectory(data: Buffer, file: string): number {
  // the record is 22 bytes plus a comment of at most 65535 bytes, at the very end
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65535); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      return i;
    }
  }
  throw new Error(`${file} is not a zip file (no end of central directory record)`);
}
