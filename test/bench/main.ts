/**
 * `npm run bench [-- --quick]`: planwatch's performance figures against the in-process watch server on
 * 127.0.0.1, with `kubectl get -w` on the same workloads alongside. Prints a Markdown table: every figure is the
 * median of several runs with [min–max]. Options (for profiling and before/after comparisons):
 *   --quick            fewer object counts, runs and seconds (a few minutes on 2 busy cores)
 *   --runs N           runs per figure
 *   --objects 1,1000   object counts to watch
 *   --rates 10,100     update rates (per second)
 *   --no-kubectl       leave kubectl out
 *   --only frames,watch,idle,first-frame,files,big-plan,record,side,hostile   (record: 1000 objects, with and without
 *                      --record; hostile: peak memory against hostile loopback servers and a flooding exec plugin)
 *   --hostile-cases endless-list,gzip-bomb,endless-event,object-flood,plugin-flood   (default: all)
 *   --k9s              add k9s (built with Go on first use, cached) to the side-by-side on a real kube-apiserver
 *   --side-objects N   ActionSets in the side-by-side (default 1000)
 *   --cli FILE         the planwatch entry to measure (default dist/planwatch.js)
 *   --executable FILE  side by side: planwatch as (a fresh copy of) this executable, e.g. the standalone one from
 *                      scripts/release.mjs --no-archive, instead of `node --cli`; --node-flags go to its NODE_OPTIONS
 *   --side-clients planwatch,kubectl,k9s   side by side: the clients to measure (default all; k9s with --k9s)
 *   --planwatch-env "K=V …"   side by side: variables added to planwatch's environment only
 *   --frames-profile DIR   write a CPU profile of each measured frames phase (node:inspector) into DIR
 *   --frames-heap-profile DIR   the same with a sampling heap profile of what each phase allocates (.heapprofile)
 *   --node-flags "…"  Node flags for every planwatch run, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   --first-frame-runs N   runs per first-frame variant (default 10, --quick 2)
 *   --file-objects N   Instances in the generated -f file (default 10000: 15 MB)
 *   --plan-steps N     steps of the generated big plan (default 100000)
 *   --json FILE        also write every run's raw figures as JSON
 *   --serve N          no measuring: serve N objects (updates at --rate R per second, default 0) and print a
 *                      kubeconfig, to profile planwatch by hand (`node --cpu-prof dist/planwatch.js --kubeconfig …`)
 */
import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {startDiscoveryFront, type DiscoveryFront} from './discovery-front.js';
import {bigPlanRun, fileMemoryRun} from './file-run.js';
import {hostileCases, hostileRun, type HostileCase} from './hostile-run.js';
import {k9sBinary, sideBySide, type SideClient} from './cluster-run.js';
import {buildUnbundled, firstFrame, type FirstFrame, type FirstFrameRun} from './first-frame.js';
import {writeBigPlanFile, writeManyObjectsFile, writeManyObjectsJsonList} from './many-objects-file.js';
import {idleRun, type IdleFigures} from './idle-run.js';
import {listFrames, profileFramesInto, treeFrames} from './frame-time.js';
import {repoRoot as root} from './repo-root.js';
import {renderTable, type Results} from './table.js';
import {drive, watchRun, type ClientName, type WatchFigures, type WatchPlan, type WatchSetup} from './watch-run.js';
import {loadWorkload, sampleUpdate, type Workload} from './workload.js';
import {encodeEntry} from '../../source/recording/recording.js';
import {openRecorder} from '../../source/sources/recorder.js';
import {WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}

function numbers(text: string | undefined, fallback: readonly number[]): number[] {
	return text === undefined ? [...fallback] : text.split(',').map(Number).filter(n => Number.isFinite(n) && n > 0);
}

const quick = process.argv.includes('--quick');
const runs = Number(option('--runs') ?? (quick ? 1 : 3));
// --quick leaves out the single object (the idle run watches one) and 100.
const objectCounts = numbers(option('--objects'), quick ? [1000, 10_000] : [1, 100, 1000, 10_000]);
const rates = numbers(option('--rates'), [10, 100]);
const withKubectl = !process.argv.includes('--no-kubectl');
const only = new Set((option('--only') ?? 'frames,watch,idle,first-frame,files,big-plan,record,side,hostile').split(','));
const withK9s = process.argv.includes('--k9s');
const cli = path.resolve(option('--cli') ?? path.join(root, 'dist', 'planwatch.js'));
const jsonOut = option('--json');
const nodeFlags = (option('--node-flags') ?? '').split(' ').filter(Boolean);
const kubectlPath = process.env['PLANWATCH_KUBECTL'] ?? '/usr/bin/kubectl';
const kubectlObjects = quick ? [1000] : objectCounts;

const plan: WatchPlan = quick
	? {settleMs: 500, idleMs: 1000, rates, rateMs: 2000, drainMs: 2000}
	: {settleMs: 1000, idleMs: 3000, rates, rateMs: 5000, drainMs: 2000};
const idleMs = quick ? 5000 : 30_000;
const idleRuns = quick ? 1 : 3;
const firstFrameRuns = Number(option('--first-frame-runs') ?? (quick ? 2 : 10));
const fileObjects = Number(option('--file-objects') ?? 10_000);
const fileRuns = quick ? 1 : 3;
const planSteps = Number(option('--plan-steps') ?? 100_000);

function log(message: string): void {
	process.stderr.write(`bench: ${message}\n`);
}

if (!existsSync(cli)) {
	throw new Error(`bench: ${cli} is missing; run \`npm run bench\` (it builds the CLI first)`);
}

const hasKubectl = withKubectl && existsSync(kubectlPath);
if (withKubectl && !hasKubectl) {
	log(`no kubectl at ${kubectlPath} (set PLANWATCH_KUBECTL): its columns stay empty`);
}

const home = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-home-'));
const env: Record<string, string> = {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', TZ: 'UTC'};

/** A watch server holding `count` objects, behind the discovery front, and a kubeconfig for it. */
async function serve(count: number): Promise<{server: WatchServer; front: DiscoveryFront; workload: Workload; setup: WatchSetup; close(): Promise<void>}> {
	const server = await WatchServer.start();
	const workload = loadWorkload(server, count);
	const front = await startDiscoveryFront(server);
	const kubeconfig = await writeKubeconfig({server: front.url, namespace: 'bench'});
	const setup: WatchSetup = {kubeconfig, env, cwd: root, cli, nodeFlags, kubectl: kubectlPath, cols: 160, rows: 40};
	return {
		server,
		front,
		workload,
		setup,
		async close() {
			await front.close();
			await server.close();
		},
	};
}

const results: Results = {quick, runs, frames: [], watch: [], record: [], idle: [], firstFrame: {}, files: [], bigPlan: [], hostile: [], side: [], notes: [], errors: [], environment: environment()};

function environment(): string {
	const cpus = os.cpus();
	let kubectlVersion = 'no kubectl';
	if (hasKubectl) {
		try {
			const text = execFileSync(kubectlPath, ['version', '--client', '-o', 'json'], {encoding: 'utf8', env});
			kubectlVersion = `kubectl ${(JSON.parse(text) as {clientVersion?: {gitVersion?: string}}).clientVersion?.gitVersion ?? '?'}`;
		} catch {
			kubectlVersion = 'kubectl ?';
		}
	}

	return `Node ${process.version}, ${kubectlVersion}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${os.platform()} ${os.release()}; load average at the start ${loadAverage()}`;
}

const started = performance.now();

/** Other work on the machine skews latency: the table says how busy it was. */
function loadAverage(): string {
	return os.loadavg().map(n => n.toFixed(1)).join(' ');
}

const serveCount = option('--serve');
if (serveCount !== undefined) {
	const served = await serve(Number(serveCount));
	const rate = Number(option('--rate') ?? 0);
	process.stdout.write(`${served.workload.objects} objects in namespace bench; ${rate} updates/s; kubeconfig:\n${served.setup.kubeconfig}\n`);
	if (rate > 0) {
		setInterval(() => {
			served.workload.update();
		}, 1000 / rate);
	}

	await new Promise(() => undefined);
}

/** A failed section is reported under the table; the others still run. */
async function section(name: string, run: () => Promise<void>): Promise<void> {
	if (!only.has(name)) {
		return;
	}

	try {
		await run();
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		log(`${name} failed: ${message}`);
		results.errors.push(`${name}: ${message.split('\n')[0]}`);
	}
}

await section('frames', async () => {
	const frames = quick ? 60 : 200;
	const heapProfileDir = option('--frames-heap-profile');
	const profileDir = heapProfileDir ?? option('--frames-profile');
	if (profileDir !== undefined) {
		mkdirSync(profileDir, {recursive: true});
	}

	profileFramesInto(profileDir, heapProfileDir !== undefined);
	for (const count of [1000, 10_000]) {
		log(`frames: list of ${count} objects`);
		results.frames.push(...(await listFrames(count, frames)));
	}

	log('frames: tree of 500 steps');
	results.frames.push(...(await treeFrames(500, frames)));
	for (const f of results.frames) {
		const quiet = f.framesPerChange === undefined ? '' : `, ${f.framesPerChange.toFixed(2)} frames per change`;
		const cost = `cpu ${f.cpuMs.toFixed(3)} ms, ${f.kibPerFrame.toFixed(1)} KiB allocated, ${f.bytesPerFrame.toFixed(0)} B`;
		log(`  ${f.name}: p50 ${f.p50.toFixed(2)} ms (change ${f.changeP50.toFixed(2)}), p99 ${f.p99.toFixed(2)} ms, ${cost}${quiet}`);
	}
});

await section('watch', async () => {
	for (const count of objectCounts) {
		const served = await serve(count);
		try {
			const clients: ClientName[] = hasKubectl && kubectlObjects.includes(count) ? ['planwatch', 'kubectl'] : ['planwatch'];
			for (let run = 0; run < runs; run++) {
				for (const client of clients) {
					log(`${client}: ${count} objects, run ${run + 1}/${runs}`);
					const figures: WatchFigures = await watchRun(client, served.setup, served.workload, plan);
					results.watch.push(figures);
					const last = figures.rates.at(-1);
					log(`  ready ${figures.readyMs.toFixed(0)} ms, idle ${(figures.idleCpu * 100).toFixed(1)} %, ` +
						`${last ? `${last.rate}/s p99 ${last.p99?.toFixed(1)} ms cpu ${(last.cpu * 100).toFixed(1)} %, ` : ''}rss ${figures.rssMiB.toFixed(0)} MiB`);
				}
			}
		} finally {
			await served.close();
		}
	}
});

await section('record', async () => {
	const served = await serve(1000);
	try {
		// Alternating, so machine load drifts over both alike.
		for (let run = 0; run < Math.max(runs, 2); run++) {
			for (const client of ['planwatch', 'planwatch --record'] as const) {
				log(`record: ${client}, 1000 objects, run ${run + 1}`);
				const figures = await watchRun(client, served.setup, served.workload, plan);
				results.record.push(figures);
				const last = figures.rates.at(-1);
				log(`  ${last ? `${last.rate}/s cpu ${(last.cpu * 100).toFixed(1)} %` : ''}`);
			}
		}
	} finally {
		await served.close();
	}

	// The recorder's own work per update, in this process: what the figures above cannot resolve on a busy machine.
	const object = sampleUpdate();
	const count = 20_000;
	let chars = 0;
	const t0 = performance.now();
	for (let i = 0; i < count; i++) {
		chars += encodeEntry(Date.now(), {type: 'upsert', resource: 'ActionSet', object}).length;
	}

	results.recordEncode = {micros: ((performance.now() - t0) * 1000) / count, chars: chars / count};
	log(`  encoding: ${results.recordEncode.micros.toFixed(1)} µs and ${results.recordEncode.chars.toFixed(0)} characters per update`);

	// The whole recorder in this process (encoding, buffering, its file writes), by CPU time, not wall time: 100
	// updates a second for a few seconds, as the watch sees them. What --record adds, without the watch's noise.
	const directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-recorder-'));
	try {
		const recorder = await openRecorder(path.join(directory, 'run.ndjson'), {
			version: 'bench',
			source: 'cluster',
			context: 'bench',
			namespace: 'bench',
			targets: [],
			waitFor: [],
			start: new Date().toISOString(),
		});
		const updates = quick ? 300 : 1000;
		// The same paced loop without the recorder first: its timers and the object's clone are not the recorder's.
		const cpuBase = process.cpuUsage();
		await drive(100, updates * 10, () => {
			sampleUpdate();
		});
		const baseline = process.cpuUsage(cpuBase);
		const cpu0 = process.cpuUsage();
		await drive(100, updates * 10, () => {
			recorder.record(Date.now(), {type: 'upsert', resource: 'ActionSet', object: sampleUpdate()});
		});
		await recorder.close(Date.now());
		const used = process.cpuUsage(cpu0);
		results.recorderCpu = {micros: Math.max(0, used.user + used.system - baseline.user - baseline.system) / updates};
		log(`  recorder end to end: ${results.recorderCpu.micros.toFixed(1)} µs CPU per update`);
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
});

await section('idle', async () => {
	const served = await serve(1);
	try {
		for (let run = 0; run < idleRuns; run++) {
			log(`idle: one object, ${idleMs / 1000} s, run ${run + 1}/${idleRuns}`);
			const figures: IdleFigures = await idleRun(served.setup, 2000, idleMs);
			results.idle.push(figures);
			log(`  cpu ${(figures.cpu * 100).toFixed(2)} %, ${figures.bytesPerSecond.toFixed(0)} B/s`);
		}
	} finally {
		await served.close();
	}
});

/** The standalone executable for this machine (scripts/release.mjs, no archive); undefined where there is none. */
function buildStandalone(): string | undefined {
	const target = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
	if (!['linux-x64', 'linux-arm64', 'darwin-x64', 'windows-x64'].includes(target)) {
		log(`first frame: no standalone executable for ${target}`);
		return undefined;
	}

	const out = path.join(root, '.cache', 'bench', 'release');
	log(`first frame: building the standalone executable for ${target}`);
	const built = spawnSync(process.execPath, ['scripts/release.mjs', '--targets', target, '--no-archive', '--out', out], {cwd: root, encoding: 'utf8'});
	if (built.status !== 0) {
		throw new Error(`scripts/release.mjs failed:\n${built.stdout}${built.stderr}`);
	}

	const [os, arch] = target.replace('x64', 'amd64').split('-');
	return path.join(out, `${os!}_${arch!}`, target.startsWith('windows') ? 'kubectl-planwatch.exe' : 'kubectl-planwatch');
}

await section('first-frame', async () => {
	const served = await serve(1);
	try {
		const unbundledDir = path.join(root, '.cache', 'bench', 'unbundled');
		mkdirSync(unbundledDir, {recursive: true});
		const unbundled = await buildUnbundled(root, unbundledDir);
		const compileCache = path.join(root, '.cache', 'bench', 'compile-cache');
		const standalone = buildStandalone();
		// One ActionSet from a file: its tree opens at once (the name is in its header).
		const file: FirstFrameRun = {args: ['-f', path.join(root, 'test', 'fixtures', 'kanister', 'actionset-mysql-backup-complete.yaml')], shows: 'backup-rslmb'};
		// The demo's first frame is its list: the header is enough.
		const demo: FirstFrameRun = {args: ['demo'], shows: 'planwatch'};
		const variants: Array<{name: string; entry: string; env: Record<string, string>; run?: FirstFrameRun}> = [
			{name: 'bundled (as shipped: compile cache on)', entry: cli, env: {}},
			{name: 'bundled (as shipped) · demo', entry: cli, env: {}, run: demo},
			{name: 'bundled (as shipped) · -f FILE', entry: cli, env: {}, run: file},
			...(standalone
				? [
					{name: 'standalone executable (Node SEA)', entry: standalone, env: {}},
					{name: 'standalone executable · demo', entry: standalone, env: {}, run: demo},
					{name: 'standalone executable · -f FILE', entry: standalone, env: {}, run: file},
				]
				: []),
			{name: 'bundled, compile cache off', entry: cli, env: {NODE_DISABLE_COMPILE_CACHE: '1'}},
			{name: 'unbundled (esbuild per file), compile cache on', entry: unbundled, env: {NODE_ENV: 'production', NODE_COMPILE_CACHE: compileCache}},
			{name: 'unbundled, compile cache off', entry: unbundled, env: {NODE_ENV: 'production', NODE_DISABLE_COMPILE_CACHE: '1'}},
		];
		// --quick: the shipped bundle, the standalone executable and the unbundled source only.
		for (const variant of quick ? variants.filter(v => !v.name.includes('compile cache off')) : variants) {
			log(`first frame: ${variant.name}`);
			// One run first fills the compile cache (and the OS file cache); it is not counted.
			await firstFrame(served.setup, variant.entry, variant.env, variant.run);
			const list: FirstFrame[] = [];
			for (let run = 0; run < firstFrameRuns; run++) {
				list.push(await firstFrame(served.setup, variant.entry, variant.env, variant.run));
			}

			results.firstFrame[variant.name] = list;
		}
	} finally {
		await served.close();
	}
});

await section('files', async () => {
	const directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-files-'));
	try {
		const file = writeManyObjectsFile(fileObjects, directory);
		for (let run = 0; run < fileRuns; run++) {
			for (const output of ['plain', 'json', 'tui'] as const) {
				log(`files: ${fileObjects} Instances from a file, -o ${output}, run ${run + 1}/${fileRuns}`);
				const setup = {kubeconfig: '', env, cwd: root, cli, nodeFlags, kubectl: kubectlPath, cols: 160, rows: 40};
				// Any row of the list: it puts what needs attention first, so mysql-00000 may not be on the first screen.
				const figures = await fileMemoryRun(setup, [file], fileObjects, output, 'mysql-0');
				results.files.push(figures);
				log(`  peak RSS ${figures.peakMiB.toFixed(0)} MiB, ${figures.seconds.toFixed(1)} s`);
			}
		}

		// The same objects as `kubectl get -o json` writes them: one List, read item by item (same budget).
		const list = writeManyObjectsJsonList(fileObjects, directory);
		for (let run = 0; run < fileRuns; run++) {
			log(`files: ${fileObjects} Instances as one JSON List, -o plain, run ${run + 1}/${fileRuns}`);
			const setup = {kubeconfig: '', env, cwd: root, cli, nodeFlags, kubectl: kubectlPath, cols: 160, rows: 40};
			const figures = await fileMemoryRun(setup, [list], fileObjects, 'plain', 'mysql-00000', 'json-list');
			results.files.push(figures);
			log(`  peak RSS ${figures.peakMiB.toFixed(0)} MiB, ${figures.seconds.toFixed(1)} s`);
		}
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
});

await section('hostile', async () => {
	for (let run = 0; run < fileRuns; run++) {
		const chosen = (option('--hostile-cases')?.split(',') ?? Object.keys(hostileCases)) as HostileCase[];
		for (const name of chosen.filter(c => c in hostileCases)) {
			log(`hostile: ${hostileCases[name]}, run ${run + 1}/${fileRuns}`);
			const figures = await hostileRun({cli, nodeFlags, env, cwd: root}, name);
			results.hostile.push(figures);
			const sent = figures.sentMiB === undefined ? '' : `, ${figures.sentMiB.toFixed(0)} MiB sent`;
			log(`  peak RSS ${figures.peakMiB.toFixed(0)} MiB, exit ${String(figures.exitCode)} after ${figures.seconds.toFixed(1)} s${sent}`);
		}
	}
});

await section('big-plan', async () => {
	const directory = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bench-plan-'));
	try {
		const file = writeBigPlanFile(planSteps, directory);
		for (let run = 0; run < idleRuns; run++) {
			for (const expanded of [true, false]) {
				log(`big plan: ${planSteps} steps, ${expanded ? 'expanded' : 'as it opens'}, idle ${idleMs / 1000} s, run ${run + 1}/${idleRuns}`);
				const setup = {kubeconfig: '', env, cwd: root, cli, nodeFlags, kubectl: kubectlPath, cols: 160, rows: 40};
				const figures = await bigPlanRun(setup, file, planSteps, expanded, 2000, idleMs);
				results.bigPlan.push(figures);
				log(`  cpu ${(figures.cpu * 100).toFixed(2)} %, key → screen ${figures.keyMs.toFixed(0)} ms`);
			}
		}
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
});

/**
 * A copy of `file` written 64 KiB at a time, as tar writes what it unpacks. `--build-sea` writes its output in one
 * go, and the page cache then holds it in 2 MiB folios that a fault maps whole: as written, the standalone
 * executable's RSS had 104–107 MiB of file pages, a copy 64 (docs/performance.md "Session 8: memory").
 */
function copiedAsUnpacked(file: string): string {
	const copy = path.join(home, path.basename(file));
	const data = readFileSync(file);
	const fd = openSync(copy, 'w', 0o755);
	try {
		for (let offset = 0; offset < data.length; offset += 65_536) {
			writeSync(fd, data, offset, Math.min(65_536, data.length - offset));
		}
	} finally {
		closeSync(fd);
	}

	chmodSync(copy, 0o755);
	return copy;
}

await section('side', async () => {
	const k9s = withK9s ? k9sBinary(root) : {note: 'k9s left out: run with --k9s'};
	if (k9s.note) {
		log(k9s.note);
		results.notes.push(k9s.note);
	}

	results.side.push(
		...(await sideBySide(
			{
				cli,
				...(option('--executable') ? {executable: copiedAsUnpacked(path.resolve(option('--executable')!))} : {}),
				...(option('--side-clients') ? {clients: option('--side-clients')!.split(',') as SideClient[]} : {}),
				...(option('--planwatch-env')
					? {planwatchEnv: Object.fromEntries(option('--planwatch-env')!.split(' ').filter(Boolean).map(pair => [pair.split('=')[0]!, pair.slice(pair.indexOf('=') + 1)]))}
					: {}),
				nodeFlags,
				kubectl: kubectlPath,
				...(k9s.path ? {k9s: k9s.path} : {}),
				env,
				cwd: root,
				objects: Number(option('--side-objects') ?? 1000),
				rates,
				settleMs: 2000,
				idleMs: quick ? 5000 : 15_000,
				rateMs: quick ? 5000 : 15_000,
			},
			log,
		)),
	);
});

log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
results.environment += `, at the end ${loadAverage()}`;
if (jsonOut) {
	writeFileSync(jsonOut, JSON.stringify(results, undefined, 2));
}

process.stdout.write(renderTable(results));
process.exit(results.errors.length > 0 ? 1 : 0);
