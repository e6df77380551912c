/**
 * The standalone executable as an operator without Node.js gets it: `npm run release` for this Linux (the
 * Node SEA, its tar.gz, SHA256SUMS and the krew manifest), checked by the real krew (built from its Go module by
 * build-krew.sh: krew's own validate-krew-manifest, and `krew install --manifest --archive` into a temporary
 * KREW_ROOT, run through kubectl, then `krew uninstall`), the archive unpacked into a folder that is the
 * whole PATH (no node anywhere), and then: --version with an empty environment, -f with its exit codes, the
 * demo to its end, the TUI in a pseudo-terminal, and one scenario on the real apiserver through
 * `kubectl planwatch` with the same exit code and final picture as the npm bin.
 */
import {spawn, spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {archiveRow, quotedFigures} from '../../scripts/release/figures.mjs';
import {krewManifest} from '../../scripts/release/krew.mjs';
import {listTarGz} from '../helpers/archive-listing.js';
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
/** The folder holding krew and validate-krew-manifest (test/e2e/build-krew.sh, cached by version). */
let krewDir: string;
/** Serves releaseDir on 127.0.0.1: the manifest's download URLs, for validate-krew-manifest's install step. */
let downloads: Server;
const kubectlPath = spawnSync('sh', ['-c', 'command -v kubectl'], {encoding: 'utf8'}).stdout.trim() || '/usr/bin/kubectl';

/** Run with exactly `env` (no inherited variables), outside the repository; async, so the suite's timers keep running. */
async function runAsync(command: string, args: readonly string[], env: Record<string, string>): Promise<{status: number | null; stdout: string; stderr: string}> {
	const child = spawn(command, args, {cwd: work, env, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	const status = await new Promise<number | null>(resolve => child.on('close', resolve));
	return {status, stdout, stderr};
}

/** Run with exactly `env` (no inherited variables), outside the repository. */
function run(command: string, args: readonly string[], env: Record<string, string> = {}) {
	return spawnSync(command, args, {cwd: work, env, encoding: 'utf8', timeout: 60_000});
}

beforeAll(async () => {
	const krew = spawnSync('bash', [path.join(repoRoot, 'test/e2e/build-krew.sh')], {encoding: 'utf8'});
	if (krew.status !== 0) {
		throw new Error(`test/e2e/build-krew.sh failed:\n${krew.stderr}`);
	}

	krewDir = krew.stdout.trim().split('\n').at(-1)!;
	downloads = createServer((request, response) => {
		const file = path.join(releaseDir, path.basename(request.url ?? ''));
		if (!existsSync(file)) {
			response.writeHead(404).end();
			return;
		}

		response.writeHead(200, {'content-type': 'application/octet-stream'});
		createReadStream(file).pipe(response);
	});
	await new Promise<void>(resolve => downloads.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(downloads.address() as AddressInfo).port}`;
	const started = performance.now();
	const release = spawnSync(process.execPath, ['scripts/release.mjs', '--targets', hostTarget, '--out', releaseDir, '--base-url', baseUrl], {cwd: repoRoot, encoding: 'utf8'});
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

	// The links the archive's README tells a user to make (the archive holds none: krew unpacks no links).
	symlinkSync('kubectl-planwatch', path.join(binDir, 'planwatch'));
	symlinkSync('kubectl-planwatch', path.join(binDir, 'kubectl_complete-planwatch'));
	// kubectl runs plugins it finds on PATH; it joins the folder so that PATH has kubectl and planwatch only.
	symlinkSync(kubectlPath, path.join(binDir, 'kubectl'));
}, 900_000);

afterAll(async () => {
	killAllClis();
	killAllPtys();
	await cluster?.stop();
	downloads?.close();
	rmSync(work, {recursive: true, force: true});
});

describe('the release', () => {
	it('has the archive (regular files only), its SHA256SUMS line', () => {
		const archive = readFileSync(path.join(releaseDir, archiveName));
		expect(readFileSync(path.join(releaseDir, 'SHA256SUMS'), 'utf8')).toBe(`${createHash('sha256').update(archive).digest('hex')}  ${archiveName}\n`);
		const entries = listTarGz(archive);
		expect(entries.map(e => e.link === undefined ? e.name : `${e.name} -> ${e.link}`)).toEqual(['kubectl-planwatch', 'LICENSE', 'README']);
		expect(entries.find(e => e.name === 'README')!.data.toString()).toContain('ln -s kubectl-planwatch kubectl_complete-planwatch');
		record({note: `${archiveName}: ${(archive.length / 1e6).toFixed(1)} MB, executable ${(entries[0]!.data.length / 1e6).toFixed(1)} MB`});
		// docs/install.md quotes these sizes: measured by scripts/install-figures.mjs, never typed.
		const quoted = quotedFigures(readFileSync(path.join(repoRoot, 'docs', 'install.md'), 'utf8'))?.split('\n') ?? [];
		expect(quoted, 'run npm run release -- --targets linux-x64 && node scripts/install-figures.mjs --write')
			.toContain(archiveRow(archiveName, archive.length, entries[0]!.data.length));
	});

	it('passes krew\'s own validate-krew-manifest, which installs it with kubectl krew from the manifest\'s URL', async () => {
		// validate-krew-manifest runs `kubectl krew install --manifest` for each platform: kubectl finds krew on PATH.
		const pathDir = path.join(work, 'validate-path');
		mkdirSync(pathDir);
		symlinkSync(path.join(krewDir, 'krew'), path.join(pathDir, 'kubectl-krew'));
		symlinkSync(kubectlPath, path.join(pathDir, 'kubectl'));
		const manifest = path.join(work, 'planwatch.yaml');
		writeFileSync(manifest, readFileSync(path.join(releaseDir, 'planwatch.yaml')));
		const result = await runAsync(path.join(krewDir, 'validate-krew-manifest'), ['-manifest', manifest], {PATH: pathDir, HOME: work});
		expect(result.status, result.stderr).toBe(0);
		expect(result.stderr).toContain('all 1 spec.platforms installed fine');
	});

	it('has a manifest for every platform that validate-krew-manifest accepts (structure, selectors)', async () => {
		const targets = [['linux', 'amd64', 'tar.gz'], ['linux', 'arm64', 'tar.gz'], ['darwin', 'amd64', 'tar.gz'], ['windows', 'amd64', 'zip']] as const;
		const manifest = path.join(work, 'all', 'planwatch.yaml');
		mkdirSync(path.dirname(manifest));
		writeFileSync(manifest, krewManifest({
			version,
			homepage: 'https://example.invalid/planwatch',
			baseUrl: 'https://example.invalid/download',
			description: 'Live plan trees',
			// As npm run release writes it without --base-url: with the comment that its URLs are placeholders.
			placeholder: true,
			archives: targets.map(([os, arch, ext]) => ({
				target: {os, arch},
				file: `planwatch_${version}_${os}_${arch}.${ext}`,
				sha256: 'a'.repeat(64),
				bin: os === 'windows' ? 'kubectl-planwatch.exe' : 'kubectl-planwatch',
			})),
		}));
		const result = await runAsync(path.join(krewDir, 'validate-krew-manifest'), ['-manifest', manifest, '-skip-install'], {PATH: '/usr/bin:/bin', HOME: work});
		expect(result.status, result.stderr).toBe(0);
		expect(result.stderr).toContain('no overlapping spec.platform[].selector');
	});

	it('leaves no node on the PATH the executable runs with', () => {
		expect(run('/bin/sh', ['-c', 'command -v node || echo none'], {PATH: binDir}).stdout).toBe('none\n');
	});
});

describe('kubectl krew install --manifest --archive (the real krew)', () => {
	const krewRoot = path.join(work, 'krew-root');
	const env = () => ({KREW_ROOT: krewRoot, HOME: work, PATH: `${path.join(krewRoot, 'bin')}:${path.dirname(kubectlPath)}`});
	const krew = async (...args: string[]) => runAsync(path.join(krewDir, 'krew'), args, env());

	it('installs the release, runs as kubectl planwatch (--version, demo --wait, completion), and uninstalls', async () => {
		const installed = await krew('install', `--manifest=${path.join(releaseDir, 'planwatch.yaml')}`, `--archive=${path.join(releaseDir, archiveName)}`);
		expect(installed.status, installed.stderr).toBe(0);
		expect(installed.stderr).toContain('Installed plugin: planwatch');
		const version_ = await runAsync(kubectlPath, ['planwatch', '--version'], env());
		expect(version_.stderr).toBe('');
		expect(version_.stdout).toBe(`${version}\n`);
		const demo = await runAsync(kubectlPath, ['planwatch', 'demo', '--scenario', 'mysql-deploy', '--speed', '20', '--wait', '-o', 'plain'], env());
		expect(demo.status, demo.stderr).toBe(0);
		expect(demo.stdout).toMatch(/^✔/m);
		// The link the archive's README gives krew users, next to krew's own.
		symlinkSync('kubectl-planwatch', path.join(krewRoot, 'bin', 'kubectl_complete-planwatch'));
		const completion = await runAsync(path.join(krewRoot, 'bin', 'kubectl_complete-planwatch'), ['demo', '--scenario', 'kudo-'], env());
		expectScenarioCompletion(completion.stdout);
		// And through kubectl, as its completion script asks on `kubectl planwatch demo --scenario kudo-<TAB>`.
		const viaKubectl = await runAsync(kubectlPath, ['__complete', 'planwatch', 'demo', '--scenario', 'kudo-'], env());
		expectScenarioCompletion(viaKubectl.stdout);
		rmSync(path.join(krewRoot, 'bin', 'kubectl_complete-planwatch'));
		// `krew uninstall` first checks that the plugin index is a git clone (a .git folder, cmd/krew/cmd/root.go
		// checkIndex). A user has one from `krew update`, which clones GitHub's krew-index: no test on 127.0.0.1 can.
		mkdirSync(path.join(krewRoot, 'index', 'default', '.git'), {recursive: true});
		const removed = await krew('uninstall', 'planwatch');
		expect(removed.status, removed.stderr).toBe(0);
		expect(existsSync(path.join(krewRoot, 'bin', 'kubectl-planwatch'))).toBe(false);
		expect((await runAsync(kubectlPath, ['planwatch', '--version'], env())).status).not.toBe(0);
		record({note: 'krew v0.4.3: install --manifest --archive, kubectl planwatch --version and demo --wait, uninstall'});
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
		expectScenarioCompletion(result.stdout);
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

/** `demo --scenario kudo-<TAB>` in Cobra's protocol, as kubectl hands it to the shell: `name<TAB>description`, then the directive. */
function expectScenarioCompletion(stdout: string): void {
	const lines = stdout.trimEnd().split('\n');
	expect(lines.map(line => line.split('\t')[0])).toEqual(['kudo-fatal', 'kudo-uid-race', ':4']);
	expect(lines.slice(0, 2).every(line => /^[^\t]+\t\S/.test(line))).toBe(true);
}
