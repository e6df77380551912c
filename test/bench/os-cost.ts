/**
 * `node test/bench/os-cost.mjs`: where a real planwatch's CPU goes outside its JavaScript — per thread user and
 * system time from /proc, and (with --strace) the system calls per second — on the side bench's real
 * kube-apiserver with 1000 ActionSets, planwatch's list in a 160×40 pseudo-terminal, idle and at each update rate.
 * With --kubectl, `kubectl get -w` on a pipe is measured the same way afterwards.
 *
 *   --cli FILE          the planwatch entry (default dist/planwatch.js)
 *   --node-flags "…"    Node flags for planwatch, after the bin's own (which it then runs with at once)
 *   --objects N         ActionSets (default 1000)
 *   --rates 0,10,100    update rates, 0 = idle (default 0,10,100)
 *   --seconds N         window per rate (default 5)
 *   --strace            after each CPU window, a second window of the same rate under `strace -f -c` (slower:
 *                       its CPU figure is not the CPU window's)
 *   --perf              after each CPU window, a window under `perf stat` (context switches, page faults)
 *   --kubectl           also kubectl (default /usr/bin/kubectl, or $PLANWATCH_KUBECTL)
 *   --args "…"          more planwatch arguments, e.g. "-v=6" with --stderr FILE (its request lines)
 *   --stderr FILE       planwatch's stderr to FILE (run through sh: the pid measured is still planwatch's)
 *   --off-screen        the side bench's mix: 9 in 10 updates to objects far below the window, the tenth to a probe
 *
 * Prints one block per client and rate: ms of CPU per second, user and system, per thread name; then strace's
 * table as calls per second.
 */
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startSideCluster} from './cluster-run.js';
import {startKubectlWatch} from './kubectl-client.js';
import {startPty} from './pty-client.js';
import {binFlags} from '../../source/cli/semi-space-exec.js';
import {repoRoot as root} from './repo-root.js';
import {drive} from './watch-run.js';
import {namespace} from './workload.js';

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}

const cli = path.resolve(option('--cli') ?? path.join(root, 'dist', 'planwatch.js'));
const givenFlags = (option('--node-flags') ?? '').split(' ').filter(Boolean);
// With flags given, the bin's own first (the given ones after them win): the bin then does not start Node again, which
// it may not under a SIGPROF profiler such as --cpu-prof (semi-space-exec.ts), and a profile is of the flags it runs with.
const nodeFlags = givenFlags.length > 0 ? [...binFlags, ...givenFlags] : [];
const objects = Number(option('--objects') ?? 1000);
const rates = (option('--rates') ?? '0,10,100').split(',').map(Number);
const seconds = Number(option('--seconds') ?? 5);
const withStrace = process.argv.includes('--strace');
const withPerf = process.argv.includes('--perf');
const kubectl = process.argv.includes('--kubectl') ? (process.env['PLANWATCH_KUBECTL'] ?? '/usr/bin/kubectl') : undefined;
const extraArgs = (option('--args') ?? '').split(' ').filter(Boolean);
const stderrFile = option('--stderr');
const offScreen = process.argv.includes('--off-screen');
const ticks = 100;

function log(message: string): void {
	process.stderr.write(`os-cost: ${message}\n`);
}

/** User and system ticks of each thread, by thread name (`node`, `V8 DefaultWorke`, `libuv-worker`, …). */
function threadTicks(pid: number): Map<string, {user: number; system: number; threads: number}> {
	const byName = new Map<string, {user: number; system: number; threads: number}>();
	for (const tid of readdirSync(`/proc/${pid}/task`)) {
		let stat: string;
		try {
			stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
		} catch {
			continue;
		}

		const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const key = tid === String(pid) ? `${name} (main)` : name;
		const entry = byName.get(key) ?? {user: 0, system: 0, threads: 0};
		entry.user += Number(fields[11]);
		entry.system += Number(fields[12]);
		entry.threads++;
		byName.set(key, entry);
	}

	return byName;
}

function cpuReport(before: ReturnType<typeof threadTicks>, after: ReturnType<typeof threadTicks>, windowSeconds: number): string {
	const lines: string[] = [];
	let user = 0;
	let system = 0;
	for (const [name, a] of after) {
		const b = before.get(name) ?? {user: 0, system: 0, threads: 0};
		const u = ((a.user - b.user) * 1000) / ticks / windowSeconds;
		const s = ((a.system - b.system) * 1000) / ticks / windowSeconds;
		user += u;
		system += s;
		if (u + s > 0) {
			lines.push(`    ${name.padEnd(24)} ×${a.threads}  user ${u.toFixed(1).padStart(5)}  sys ${s.toFixed(1).padStart(5)} ms/s`);
		}
	}

	return `  cpu ms/s: user ${user.toFixed(1)}  sys ${system.toFixed(1)}  total ${(user + system).toFixed(1)} (${((user + system) / 10).toFixed(2)} % of a core)\n${lines.join('\n')}`;
}

/** Run `command` attached to `pid` for the window while `during` drives the load; resolves with its output file. */
async function attached(command: string, args: string[], during: () => Promise<void>, settle = 300): Promise<string> {
	const directory = mkdtempSync(path.join(os.tmpdir(), 'os-cost-'));
	const out = path.join(directory, 'out.txt');
	const child = spawn(command, [...args.map(a => a.replace('OUT', out))], {stdio: ['ignore', 'ignore', 'pipe']});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	await sleep(settle);
	await during();
	const exited = new Promise<void>(resolve => {
		child.on('exit', () => {
			resolve();
		});
	});
	child.kill('SIGINT');
	await exited;
	const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
	rmSync(directory, {recursive: true, force: true});
	return text || stderr;
}

/** strace -c's table with a calls-per-second column. */
function perSecond(table: string, windowSeconds: number): string {
	return table
		.split('\n')
		.map(line => {
			// % time, seconds, usecs/call, calls, [errors], syscall
			const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?\S+\s*$/.exec(line);
			if (!m) {
				return `    ${line}`;
			}

			return `    ${line}   ${(Number(m[1]) / windowSeconds).toFixed(1).padStart(8)}/s`;
		})
		.join('\n');
}

async function measureClient(name: string, pid: number, load: (rate: number) => Promise<void>): Promise<void> {
	for (const rate of rates) {
		const label = rate === 0 ? 'idle' : `${rate} updates/s${offScreen ? ', 9 in 10 off screen' : ''}`;
		const before = threadTicks(pid);
		const t0 = performance.now();
		await load(rate);
		const windowSeconds = (performance.now() - t0) / 1000;
		process.stdout.write(`${name}, ${label}, ${windowSeconds.toFixed(1)} s, load average ${os.loadavg().map(l => l.toFixed(2)).join(' ')}\n`);
		process.stdout.write(`${cpuReport(before, threadTicks(pid), windowSeconds)}\n`);
		if (withStrace) {
			let straced = 0;
			const table = await attached('strace', ['-f', '-c', '-qq', '-o', 'OUT', '-p', String(pid)], async () => {
				const s0 = performance.now();
				await load(rate);
				straced = (performance.now() - s0) / 1000;
			});
			process.stdout.write(`  strace -f -c over ${straced.toFixed(1)} s:\n${perSecond(table.trimEnd(), straced)}\n`);
		}

		if (withPerf) {
			const table = await attached('perf', ['stat', '-e', 'task-clock,context-switches,cpu-migrations,page-faults', '-o', 'OUT', '-p', String(pid)], async () => {
				await load(rate);
			});
			process.stdout.write(`  perf stat:\n${table.trimEnd().split('\n').filter(Boolean).map(l => `    ${l}`).join('\n')}\n`);
		}
	}
}

if (!existsSync(cli)) {
	throw new Error(`os-cost: ${cli} is missing; build it first (node scripts/build.mjs --quiet)`);
}

const home = mkdtempSync(path.join(os.tmpdir(), 'os-cost-home-'));
const env: Record<string, string> = {PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', TZ: 'UTC'};
const {cluster, workload} = await startSideCluster(root, objects, log);
const load = async (rate: number) => {
	if (rate === 0) {
		await sleep(seconds * 1000);
	} else {
		let sent = 0;
		await drive(rate, seconds * 1000, () => {
			if (offScreen && sent++ % 10 !== 9) {
				workload.updateOffScreen();
			} else {
				workload.update();
			}
		});
	}
};

try {
	log(`planwatch ${cli}`);
	const argv = [process.execPath, ...nodeFlags, cli, '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, ...extraArgs];
	// `exec` keeps the pid: the shell only points stderr at the file.
	const pty = stderrFile
		? startPty('sh', ['-c', 'exec "$@" 2>"$0"', stderrFile, ...argv], {cols: 160, rows: 40, env, cwd: root})
		: startPty(argv[0]!, argv.slice(1), {cols: 160, rows: 40, env, cwd: root});
	try {
		await pty.waitFor(() => pty.lines().some(line => line.includes(workload.probes[0]!)), 'planwatch to show the probes', 120_000);
		await sleep(2000);
		log(`planwatch pid ${pty.pid}`);
		await measureClient('planwatch', pty.pid, load);
	} finally {
		await pty.stop();
	}

	if (kubectl) {
		const watch = startKubectlWatch(kubectl, cluster.adminKubeconfig, namespace, env);
		try {
			await watch.waitFor(() => watch.lineCount() > objects, `kubectl to list ${objects} ActionSets`, 120_000);
			await sleep(2000);
			await measureClient('kubectl get -w', watch.pid, load);
		} finally {
			await watch.stop();
		}
	}
} finally {
	await cluster.stop();
	rmSync(home, {recursive: true, force: true});
}

process.exit(0);
