/**
 * The release's archive writers and krew manifest, on small stand-in executables: the archives read back
 * (names, modes, links, bytes), the manifest passes krew's rules with the archives' sha256, and each rule
 * catches what it is for. test/e2e/standalone.test.ts checks the same on a real release.
 */
import {createHash} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {tarGz, zip} from '../../scripts/release/archive.mjs';
import {krewManifest} from '../../scripts/release/krew.mjs';
import {listTarGz, listZip} from '../helpers/archive-listing.js';
import {validateKrewManifest} from '../helpers/krew-manifest.js';

const executable = Buffer.from('#!/bin/sh\necho planwatch\n'.repeat(100));
const license = Buffer.from('Apache License\n');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function release() {
	const linux = await tarGz([
		{name: 'kubectl-planwatch', mode: 0o755, data: executable},
		{name: 'planwatch', link: 'kubectl-planwatch'},
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

describe('release archives', () => {
	it('tar.gz holds the executable (mode 755), its links and the license', async () => {
		const {linux} = await release();
		const entries = listTarGz(linux);
		expect(entries.map(e => [e.name, e.mode.toString(8), e.link])).toEqual([
			['kubectl-planwatch', '755', undefined],
			['planwatch', '777', 'kubectl-planwatch'],
			['LICENSE', '644', undefined],
		]);
		expect(entries[0]!.data.equals(executable)).toBe(true);
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
	it('passes krew\'s rules, with each archive\'s sha256 and bin', async () => {
		const {manifest, archives} = await release();
		expect(validateKrewManifest(manifest, 'planwatch', archives)).toEqual([]);
		expect(manifest).toContain('uri: "https://example.com/planwatch/releases/download/v0.1.0/planwatch_0.1.0_linux_amd64.tar.gz"');
	});

	it.each([
		['a sha256 that is not the archive\'s', (m: string) => m.replace(/sha256: "[a-f\d]{64}"/, `sha256: "${'0'.repeat(64)}"`), /platform 0: sha256 is not the sha256/],
		['a malformed sha256', (m: string) => m.replace(/sha256: "[a-f\d]{64}"/, 'sha256: "ABC"'), /platform 0: sha256 ABC is not valid/],
		['a bin missing from the archive', (m: string) => m.replace('bin: "kubectl-planwatch"', 'bin: "kubectl-other"'), /platform 0: kubectl-other is not in planwatch_0\.1\.0_linux_amd64\.tar\.gz/],
		['another name', (m: string) => m.replace('name: planwatch', 'name: plan-watch'), /should be named planwatch/],
		['a version without v', (m: string) => m.replace('version: "v0.1.0"', 'version: "0.1.0"'), /not a semver/],
		['no short description', (m: string) => m.replace(/ {2}shortDescription: .*\n/, ''), /short description/],
		['a selector key krew does not know', (m: string) => m.replace('os: "linux"', 'distro: "linux"'), /selector must use os and arch/],
		['an archive that is not there', (m: string) => m.replace('_linux_amd64.tar.gz"', '_linux_arm64.tar.gz"'), /no archive planwatch_0\.1\.0_linux_arm64\.tar\.gz/],
		['the wrong apiVersion', (m: string) => m.replace('v1alpha2', 'v1alpha1'), /apiVersion/],
	])('rejects %s', async (_, mutate, problem) => {
		const {manifest, archives} = await release();
		const problems = validateKrewManifest(mutate(manifest), 'planwatch', archives);
		expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
		expect(problems.length).toBeLessThanOrEqual(2);
	});
});
