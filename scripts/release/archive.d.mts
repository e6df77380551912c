/** Types of archive.mjs for the tests that use it. */
export type ArchiveEntry = {readonly name: string; readonly mode?: number; readonly data: Buffer} | {readonly name: string; readonly link: string};
export function tarGz(entries: readonly ArchiveEntry[]): Promise<Buffer>;
export function zip(entries: readonly ArchiveEntry[]): Promise<Buffer>;
export function extractFromTarGz(archive: Buffer, wanted: string): Buffer;
