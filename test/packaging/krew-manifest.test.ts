/**
 * The release's archive writers and krew manifest, on small stand-in executables: the archives read back
 * (names, modes, bytes), links are refused (krew cannot unpack them), and the manifest names each archive's
 * URL, sha256 and bin. Whether krew accepts the manifest and installs the archive is decided by the real krew
 * (validate-krew-manifest and `krew install --manifest --archive`) in test/e2e/standalone.test.ts.
 */
import {createHash} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {tarGz, zip} from '../../scripts/release/archive.mjs';
import {krewManifest} from '../../scripts/release/krew.mjs';
import {listTarGz, listZip} from '../helpers/archive-listing.js';

const executable = Buffer.from('#!/bin/sh\necho planwatch\n'.repeat(100));
const license = Buffer.from('Apache License\n');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function release() {
	const linux = await tarGz([
		{name: 'kubectl-planwatch', mode: 0o755, data: executable},
		{name: 'LICENSE', mode: 0o644, data: license},
	]);
	const windows = await zip([{name: 'kubectl-planwatch.exe', mode: 0o755, data: executable}, {name: 'LICENSE', mode: 0o644, data: license}]);
	const archives = new Map([
		['planwatch_0.1.0_linux_amd64.tar.gz', linux],
		['planwatch_0.1.0_windows_amd64.zip', windows],
	]);
	const manifest = krewManifest({
		version: '0.1.0',
		homepage: 'https://example.com/planwatch',
		baseUrl: 'https://example.com/planwatch/releases/download/v0.1.0',
		description: 'Live plan trees',
		archives: [
			{target: {os: 'linux', arch: 'amd64'}, file: 'planwatch_0.1.0_linux_amd64.tar.gz', sha256: sha256(linux), bin: 'kubectl-planwatch'},
			{target: {os: 'windows', arch: 'amd64'}, file: 'planwatch_0.1.0_windows_amd64.zip', sha256: sha256(windows), bin: 'kubectl-planwatch.exe'},
		],
	});
	return {linux, windows, archives, manifest};
}

describe('krew manifest with placeholder URLs', () => {
	it('says at its top that nothing is uploaded there yet, and how to install instead', () => {
		const options = {
			version: '0.1.0',
			homepage: 'https://example.com/planwatch',
			baseUrl: 'https://example.com/planwatch/releases/download/v0.1.0',
			description: 'Live plan trees',
			archives: [{target: {os: 'linux', arch: 'amd64'}, file: 'planwatch_0.1.0_linux_amd64.tar.gz', sha256: 'a'.repeat(64), bin: 'kubectl-planwatch'}],
		};
		const placeholder = krewManifest({...options, placeholder: true});
		expect(placeholder.split('\n').slice(0, 3)).toEqual([
			'# The uri values are placeholders: nothing is uploaded at https://example.com/planwatch/releases/download/v0.1.0 yet. Install with',
			'#   kubectl krew install --manifest=planwatch.yaml --archive=<the archive for your platform>',
			'# or build the release again with npm run release -- --base-url URL (where the archives will be).',
		]);
		// The rest is the manifest as without the note: the comment changes nothing krew reads.
		expect(placeholder.split('\n').slice(3).join('\n')).toBe(krewManifest(options));
		expect(krewManifest(options)).not.toContain('#');
	});
});

describe('release archives', () => {
	it('tar.gz holds the executable (mode 755) and the license, regular files only', async () => {
		const {linux} = await release();
		const entries = listTarGz(linux);
		expect(entries.map(e => [e.name, e.mode.toString(8), e.link])).toEqual([
			['kubectl-planwatch', '755', undefined],
			['LICENSE', '644', undefined],
		]);
		expect(entries[0]!.data.equals(executable)).toBe(true);
	});

	it('refuses a link: krew unpacks regular files and folders only', async () => {
		await expect(tarGz([{name: 'planwatch', link: 'kubectl-planwatch'}])).rejects.toThrow(/only regular files/);
	});

	it('zip holds the executable and the license, deflated', async () => {
		const {windows} = await release();
		const entries = listZip(windows);
		expect(entries.map(e => [e.name, e.mode.toString(8)])).toEqual([['kubectl-planwatch.exe', '755'], ['LICENSE', '644']]);
		expect(entries[0]!.data.equals(executable)).toBe(true);
		expect(windows.length).toBeLessThan(executable.length);
	});

	it('is reproducible: the same input gives the same bytes', async () => {
		const [a, b] = [await release(), await release()];
		expect(a.linux.equals(b.linux)).toBe(true);
		expect(a.windows.equals(b.windows)).toBe(true);
	});
});

describe('krew manifest', () => {
	it('names each archive\'s URL, sha256 and bin, and ships the license', async () => {
		const {manifest, linux, windows} = await release();
		expect(manifest).toContain('uri: "https://example.com/planwatch/releases/download/v0.1.0/planwatch_0.1.0_linux_amd64.tar.gz"');
		expect(manifest).toContain(`sha256: "${sha256(linux)}"`);
		expect(manifest).toContain(`sha256: "${sha256(windows)}"`);
		expect(manifest).toContain('bin: "kubectl-planwatch.exe"');
		expect(manifest.match(/- from: "LICENSE"/g)).toHaveLength(2);
	});
});
