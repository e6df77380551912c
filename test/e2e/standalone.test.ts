/**
 * The standalone executable as an operator without Node.js gets it: `npm run release` for this Linux (the
 * Node SEA, its tar.gz, SHA256SUMS and the krew manifest), the archive unpacked into a folder that is the
 * whole PATH (no node anywhere), and then: --version with an empty environment, -f with its exit codes, the
 * demo to its end, the TUI in a pseudo-terminal, and one scenario on the real apiserver through
 * `kubectl planwatch` with the same exit code and final picture as the npm bin.
 */
import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {listTarGz} from '../helpers/archive-listing.js';
import {validateKrewManifest} from '../helpers/krew-manifest.js';
import {cliFinal, killAllClis, repoRoot, runCli, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {killAllPtys, startPtyCli} from './harness/pty.js';
import {record} from './harness/results.js';
import {freshNamespace, launchIndex, playWatched, scenarioNamed} from './harness/scenario-run.js';

const {version} = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string};
// This machine's target (the e2e suite runs on Linux): an executable it can run.
const goArch = process.arch === 'x64' ? 'amd64' : process.arch;
const hostTarget = `linux-${process.arch}`;
const archiveName = `planwatch_${version}_linux_${goArch}.tar.gz`;
const work = mkdtempSync(path.join(tmpdir(), 'planwatch-standalone-'));
const releaseDir = path.join(work, 'release');
/** The unpacked archive: the only folder on PATH. */
const binDir = path.join(work, 'bin');
const exe = path.join(binDir, 'kubectl-planwatch');
const fixture = (name: string): string => path.join(repoRoot, 'test', 'fixtures', name);
let cluster: Cluster;

/** Run with exactly `env` (no inherited variables), outside the repository. */
function run(command: string, args: readonly string[], env: Record<string, string> = {}) {
	return spawnSync(command, args, {cwd: work, env, encoding: 'utf8', timeout: 60_000});
}

beforeAll(async () => {
	const started = performance.now();
	const release = spawnSync(process.execPath, ['scripts/release.mjs', '--targets', hostTarget, '--out', releaseDir], {cwd: repoRoot, encoding: 'utf8'});
	if (release.status !== 0) {
		throw new Error(`npm run release failed:\n${release.stdout}${release.stderr}`);
	}

	record({note: `release ${hostTarget} built in ${((performance.now() - started) / 1000).toFixed(0)} s`});
	mkdirSync(binDir);
	// Unpacked by the system's tar, not by our own reader: the archive must work with the tools users have.
	const untar = spawnSync('tar', ['-xzf', path.join(releaseDir, archiveName), '-C', binDir], {encoding: 'utf8'});
	if (untar.status !== 0) {
		throw new Error(`tar -xzf failed: ${untar.stderr}`);
	}

	// kubectl runs plugins it finds on PATH; it joins the folder so that PATH has kubectl and planwatch only.
	const kubectl = spawnSync('sh', ['-c', 'command -v kubectl'], {encoding: 'utf8'}).stdout.trim() || '/usr/bin/kubectl';
	symlinkSync(kubectl, path.join(binDir, 'kubectl'));
}, 600_000);

afterAll(async () => {
	killAllClis();
	killAllPtys();
	await cluster?.stop();
	rmSync(work, {recursive: true, force: true});
});

describe('the release', () => {
	it('has the archive, its SHA256SUMS line and a krew manifest that krew accepts', () => {
		const archive = readFileSync(path.join(releaseDir, archiveName));
		expect(readFileSync(path.join(releaseDir, 'SHA256SUMS'), 'utf8')).toBe(`${createHash('sha256').update(archive).digest('hex')}  ${archiveName}\n`);
		const manifest = readFileSync(path.join(releaseDir, 'planwatch.yaml'), 'utf8');
		expect(validateKrewManifest(manifest, 'planwatch', new Map([[archiveName, archive]]))).toEqual([]);
		const entries = listTarGz(archive);
		expect(entries.map(e => e.link === undefined ? e.name : `${e.name} -> ${e.link}`)).toEqual([
			'kubectl-planwatch',
			'planwatch -> kubectl-planwatch',
			'kubectl_complete-planwatch -> kubectl-planwatch',
			'LICENSE',
			'README',
		]);
		record({note: `${archiveName}: ${(archive.length / 1e6).toFixed(1)} MB, executable ${(entries[0]!.data.length / 1e6).toFixed(1)} MB`});
	});

	it('leaves no node on the PATH the executable runs with', () => {
		expect(run('/bin/sh', ['-c', 'command -v node || echo none'], {PATH: binDir}).stdout).toBe('none\n');
	});
});

describe('the executable, no Node.js, empty environment', () => {
	it('--version and version -o json', () => {
		const plain = run(exe, ['--version']);
		expect(plain.stderr).toBe('');
		expect(plain.stdout).toBe(`${version}\n`);
		expect(plain.status).toBe(0);
		const json = JSON.parse(run(exe, ['version', '-o', 'json']).stdout) as Record<string, unknown>;
		expect(json).toMatchObject({version, node: `v${process.versions.node}`, platform: hostTarget, standalone: true});
	});

	it('-f FILE -o json with the npm bin\'s exit codes: 0, 1 on a failed object, 2 on a missing file', () => {
		const ok = run(exe, ['-f', fixture('kudo/instance-mysql-deploy-in-progress.yaml'), '-f', fixture('kudo/operatorversion-mysql.yaml'), '-o', 'json']);
		expect(ok.status).toBe(0);
		expect((JSON.parse(ok.stdout) as {objects: Array<{name: string; outcome: string}>}).objects).toMatchObject([{name: 'mysql-instance', outcome: 'running'}]);
		const failed = run(exe, ['-f', fixture('kanister/actionset-postgres-backup-defer-failed.yaml'), '-o', 'json']);
		expect(failed.status).toBe(1);
		const missing = run(exe, ['-f', path.join(work, 'nope.yaml')]);
		expect(missing.status).toBe(2);
		expect(missing.stderr).toMatch(/^planwatch: [^\n]*nope\.yaml[^\n]*\n$/);
	});

	it('plays demo --speed 20 --wait -o plain to its end, as the npm bin does', async () => {
		const standalone = run(exe, ['demo', '--speed', '20', '--wait', '-o', 'plain']);
		const npm = await runCli(['demo', '--speed', '20', '--wait', '-o', 'plain']);
		expect(standalone.status).toBe(npm.code);
		expect(standalone.stderr).toBe('');
		const summaries = (stdout: string) => stdout.split('\n').filter(l => /^[✔✘]/.test(l)).sort();
		expect(summaries(standalone.stdout).length).toBeGreaterThan(0);
		expect(summaries(standalone.stdout)).toEqual(summaries(npm.stdout));
	});

	it('draws the TUI in a pseudo-terminal and quits on q', async () => {
		const tui = startPtyCli(['demo', '--speed', '20'], {command: [exe], env: {PATH: binDir}});
		await tui.waitForText('mysql-instance', 30_000);
		tui.press('q');
		expect((await tui.waitForExit(10_000)).exitCode).toBe(0);
	});

	it('completes `kubectl planwatch <TAB>` as kubectl_complete-planwatch', () => {
		const result = run(path.join(binDir, 'kubectl_complete-planwatch'), ['demo', '--scenario', 'kudo-']);
		expect(result.stdout).toBe('kudo-fatal\nkudo-uid-race\n:4\n');
	});
});

describe('kubectl planwatch against the real apiserver', () => {
	beforeAll(async () => {
		cluster = await startCluster();
	}, 1_800_000);

	it('waits for a scenario with the npm bin\'s exit code and final picture', async () => {
		const scenario = scenarioNamed('kudo-fatal');
		const namespace = freshNamespace('standalone');
		const args = ['instance/mysql-orders', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '2m', '-o', 'json'];
		let viaKubectl: CliProcess | undefined;
		let npm: CliProcess | undefined;
		await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, 'mysql-orders'),
			launch: async () => {
				viaKubectl = startCli(['planwatch', ...args], {command: [path.join(binDir, 'kubectl')], env: {PATH: binDir}});
				npm = startCli(args);
				await viaKubectl.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
				await npm.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
			},
		});
		const [standaloneExit, npmExit] = await Promise.all([viaKubectl!.waitForExit(90_000), npm!.waitForExit(90_000)]);
		expect(standaloneExit.code, viaKubectl!.describe()).toBe(1);
		expect(npmExit.code, npm!.describe()).toBe(1);
		const picture = (p: CliProcess) => cliFinal(p.stdout()).objects.map(o => ({name: o.name, outcome: o.outcome, summary: o.summary}));
		expect(picture(viaKubectl!)).toEqual(picture(npm!));
		expect(picture(viaKubectl!)).toMatchObject([{name: 'mysql-orders', outcome: 'failed'}]);
		record({scenarios: 1, note: 'kudo-fatal through kubectl planwatch (standalone): exit 1 as the npm bin'});
	});
});

