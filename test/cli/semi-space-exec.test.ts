import {spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {binFlags, efficiencyFlag, execFlags, semiSpaceExecArgs, semiSpaceFlag, semiSpaceMiB, workerThreads} from '../../source/cli/semi-space-exec.js';
import {youngGenerationLimitBytes} from '../../source/cli/young-generation.js';
import {binPath, buildBin, repoRoot} from '../helpers/run-bin.js';

const mib = 1024 * 1024;
const source = (name: string) => JSON.stringify(new URL(`../../source/cli/${name}`, import.meta.url).href);
const work = mkdtempSync(path.join(tmpdir(), 'planwatch-semi-space-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

/**
 * A child Node (a script file, as the bin is) that prints its pid, then caps its young generation the way `how`
 * says, then keeps 300 000 objects made in one synchronous loop (as a first LIST's parse does) and more a little
 * per event-loop turn; at the end it prints its pid, its Node flags, its young generation's size and V8 threads.
 * The size: with the exec, the least seen after a turn, what the space shrinks back to after a scavenge (between
 * scavenges it grows a page a turn, 24–29 MiB seen at the end with the cap); with the growth cap alone, the largest
 * seen after each turn (at the end alone it was 10.25 MiB once, when V8 had just given pages back after the burst: a
 * CI run).
 */
function child(how: 'exec' | 'growth cap'): {pids: number[]; execArgv: string[]; young: number; workers: number; efficient: boolean} {
	const script = path.join(work, `${how.replace(' ', '-')}.mjs`);
	const cap = {
		exec: `(await import(${source('semi-space-exec.ts')})).execWithSmallYoungGeneration(process);`,
		'growth cap': `(await import(${source('young-generation.ts')})).capYoungGeneration();`,
	};
	writeFileSync(script, `
		import v8 from 'node:v8';
		import {readdirSync, readFileSync, writeSync} from 'node:fs';
		writeSync(1, process.pid + '\\n');
		${cap[how]}
		const newSpace = () => v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space').space_size;
		const kept = [];
		for (let i = 0; i < 300000; i++) kept.push({i, text: 'object ' + i});
		let most = newSpace();
		let least = Infinity;
		for (let turn = 0; turn < 100; turn++) {
			for (let i = 0; i < 2000; i++) kept.push({turn, i, text: 'object ' + turn + '/' + i});
			await new Promise(resolve => setImmediate(resolve));
			most = Math.max(most, newSpace());
			least = Math.min(least, newSpace());
		}
		const young = ${how === 'exec' ? 'least' : 'most'};
		// Node names its V8 platform's threads node-V8Worker (Linux: /proc).
		const workers = readdirSync('/proc/self/task').filter(t => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim() === 'node-V8Worker').length;
		// What V8 itself says of its efficiency mode (a V8 intrinsic: allowed here, parsed after).
		v8.setFlagsFromString('--allow-natives-syntax');
		const efficient = new Function('return %IsEfficiencyModeEnabled()')();
		writeSync(1, JSON.stringify({pid: process.pid, execArgv: process.execArgv, young, workers, efficient}) + '\\n');
	`);
	const run = spawnSync(process.execPath, [script], {encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url))});
	expect(run.stderr).toBe('');
	const lines = run.stdout.trim().split('\n');
	const end = JSON.parse(lines.at(-1)!) as {pid: number; execArgv: string[]; young: number; workers: number; efficient: boolean};
	return {pids: [...lines.slice(0, -1).map(Number), end.pid], execArgv: end.execArgv, young: end.young, workers: end.workers, efficient: end.efficient};
}

describe('the bin runs Node again with a capped young generation', () => {
	const target = {execPath: '/usr/bin/node', execArgv: ['--enable-source-maps'], argv: ['/usr/bin/node', '/opt/planwatch/dist/planwatch.js', '-n', 'kanister'], env: {}};

	it('puts the flag before the same Node flags, script and arguments', () => {
		expect(semiSpaceExecArgs(target)).toEqual(['/usr/bin/node', ...binFlags, '--enable-source-maps', '/opt/planwatch/dist/planwatch.js', '-n', 'kanister']);
		expect(binFlags).toEqual([`--max-semi-space-size=${semiSpaceMiB}`, `--v8-pool-size=${workerThreads}`, efficiencyFlag]);
		expect(execFlags).toEqual([`--max-semi-space-size=${semiSpaceMiB}`, `--v8-pool-size=${workerThreads}`]);
	});

	it('does not when it already runs with a cap, under a debugger, watcher or SIGPROF profiler, or for a command that ends at once', () => {
		expect(semiSpaceExecArgs({...target, execArgv: [semiSpaceFlag]})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, execArgv: ['--max-semi-space-size=16']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, env: {NODE_OPTIONS: '--max-semi-space-size=8'}})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, execArgv: ['--inspect-brk']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/p']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, execArgv: ['--prof']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, env: {NODE_OPTIONS: '--cpu-prof'}})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, execArgv: ['--profile-foo-not-a-profiler']})).toBeDefined();
		expect(semiSpaceExecArgs({...target, argv: ['/usr/bin/node', '/opt/planwatch/dist/planwatch.js', '__complete', 'demo', '']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, argv: ['/usr/bin/node', '/opt/planwatch/dist/planwatch.js', '--version']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, argv: ['/usr/bin/node', '/usr/local/bin/kubectl_complete-planwatch', 'demo']})).toBeUndefined();
		expect(semiSpaceExecArgs({...target, argv: ['/usr/bin/node']})).toBeUndefined();
	});

	it('keeps the same process, now with the flag, and its young generation within the cap through a synchronous burst', () => {
		const exec = child('exec');
		// The script's first line runs twice (before and after execve), both in one process.
		expect(exec.pids).toHaveLength(3);
		expect(new Set(exec.pids).size).toBe(1);
		expect(exec.execArgv).toEqual(binFlags);
		// Two semi-spaces of at most 4 MiB (4–8 MiB seen); Node's own cap leaves 15 MiB or more (28 with the efficiency mode).
		expect(exec.young).toBeLessThanOrEqual(3 * semiSpaceMiB * mib);
		expect(exec.workers).toBe(workerThreads);
		expect(exec.efficient).toBe(true);
	});

	it('is needed: with the growth cap alone the same burst leaves a larger young generation', () => {
		const capped = child('growth cap');
		expect(capped.pids).toHaveLength(2);
		expect(capped.execArgv).toEqual([]);
		// Node's own pool: four.
		expect(capped.workers).toBe(4);
		// Node leaves V8's efficiency mode off: the flag is what turns it on.
		expect(capped.efficient).toBe(false);
		// 15.75–28.5 MiB seen against its 16 MiB limit: V8 reports the burst's GCs to JavaScript only after it.
		expect(capped.young).toBeGreaterThan(3 * semiSpaceMiB * mib);
		expect(youngGenerationLimitBytes).toBeGreaterThan(3 * semiSpaceMiB * mib);
	});
});

describe('the built bin', () => {
	beforeAll(() => {
		buildBin();
	});

	/** The Node flags and pid of each start of Node while the bin runs `args` (a module imported before the bin). */
	function starts(args: readonly string[], nodeFlags: readonly string[] = []): Array<{pid: number; execArgv: string[]}> {
		const probe = path.join(work, 'probe.mjs');
		writeFileSync(probe, 'import {writeSync} from \'node:fs\'; writeSync(2, JSON.stringify({pid: process.pid, execArgv: process.execArgv}) + \'\\n\');');
		const run = spawnSync(process.execPath, [...nodeFlags, '--import', probe, binPath, ...args], {cwd: repoRoot, encoding: 'utf8', env: {...process.env, TZ: 'UTC'}});
		expect(run.status).toBe(0);
		return run.stderr.trim().split('\n').map(line => JSON.parse(line) as {pid: number; execArgv: string[]});
	}

	it('runs the CLI in Node started again with the cap, in the same process', () => {
		const file = path.join(repoRoot, 'test', 'fixtures', 'kanister', 'actionset-mysql-backup-complete.yaml');
		const seen = starts(['-f', file, '-o', 'plain']);
		expect(seen.map(s => s.execArgv)).toEqual([['--import', expect.any(String)], [...binFlags, '--import', expect.any(String)]]);
		expect(seen[1]!.pid).toBe(seen[0]!.pid);
	});

	it('starts Node once under --cpu-prof, whose SIGPROF could end the Node started again, and writes the profile', () => {
		const file = path.join(repoRoot, 'test', 'fixtures', 'kanister', 'actionset-mysql-backup-complete.yaml');
		const profiles = path.join(work, 'profiles');
		const seen = starts(['-f', file, '-o', 'plain'], ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
		expect(seen).toHaveLength(1);
		expect(readdirSync(profiles).filter(name => name.endsWith('.cpuprofile'))).toHaveLength(1);
	});

	it('starts Node once for --version', () => {
		expect(starts(['--version'])).toHaveLength(1);
	});
});
