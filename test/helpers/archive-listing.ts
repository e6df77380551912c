/**
 * Read back what the release archives hold, independently of scripts/release/archive.mjs: tar (ustar headers,
 * gzip) and zip (central directory). Names, modes, link targets and contents, for checking a release.
 */
import zlib from 'node:zlib';

export type ListedEntry = {readonly name: string; readonly mode: number; readonly link?: string; readonly data: Buffer};

export function listTarGz(archive: Buffer): ListedEntry[] {
	const tar = zlib.gunzipSync(archive);
	const entries: ListedEntry[] = [];
	for (let offset = 0; offset + 512 <= tar.length;) {
		const header = tar.subarray(offset, offset + 512);
		if (header.every(byte => byte === 0)) {
			break;
		}

		const field = (start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
		const size = Number.parseInt(field(124, 12).trim() || '0', 8);
		const type = field(156, 1);
		entries.push({
			name: field(0, 100),
			mode: Number.parseInt(field(100, 8).trim(), 8),
			...(type === '2' ? {link: field(157, 100)} : {}),
			data: tar.subarray(offset + 512, offset + 512 + size),
		});
		offset += 512 + Math.ceil(size / 512) * 512;
	}

	return entries;
}

export function listZip(archive: Buffer): ListedEntry[] {
	const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	const count = archive.readUInt16LE(end + 10);
	let at = archive.readUInt32LE(end + 16);
	const entries: ListedEntry[] = [];
	for (let i = 0; i < count; i++) {
		const nameLength = archive.readUInt16LE(at + 28);
		const extraLength = archive.readUInt16LE(at + 30);
		const commentLength = archive.readUInt16LE(at + 32);
		const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
		const compressedSize = archive.readUInt32LE(at + 20);
		const local = archive.readUInt32LE(at + 42);
		const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
		const compressed = archive.subarray(dataStart, dataStart + compressedSize);
		entries.push({name, mode: (archive.readUInt32LE(at + 38) >>> 16) & 0o7777, data: archive.readUInt16LE(at + 10) === 8 ? zlib.inflateRawSync(compressed) : compressed});
		at += 46 + nameLength + extraLength + commentLength;
	}

	return entries;
}

export function listArchive(file: string, archive: Buffer): ListedEntry[] {
	return file.endsWith('.zip') ? listZip(archive) : listTarGz(archive);
}
