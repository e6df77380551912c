/**
 * Signals and a stdout nobody can read, through the built bin in child processes: SIGTERM while every write is
 * blocked on a full pipe still ends with 130 (it waited forever for the last lines), and a run started with
 * stdout closed (`>&-`) fails at once with exit 2 and one line instead of exiting 0 with its output lost.
 */
import {spawn} from 'node:child_process';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {binEnv, binPath, buildBin, repoRoot} from '../helpers/run-bin.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {instances, operatorVersions, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';
import {waitUntil} from '../helpers/wait-until.js';

beforeAll(buildBin);

let server: WatchServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

type Put = Parameters<WatchServer['put']>[1];

/** Ends with the child; a child still running after `hangMs` is killed (code null): a hang, not a slow run. */
async function exitOf(child: ReturnType<typeof spawn>, hangMs = 240_000): Promise<{code: number | null; stderr: string}> {
	let stderr = '';
	child.stderr?.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	const timer = setTimeout(() => child.kill('SIGKILL'), hangMs);
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', code => {
			clearTimeout(timer);
			resolve({code, stderr});
		});
	});
}

describe('stdout a full pipe nobody reads', () => {
	it('SIGTERM still ends the run with 130', async () => {
		server = await WatchServer.start();
		for (const ov of [loadFixtureObject('kudo/operatorversion-mysql.yaml')]) {
			server.put(operatorVersions, ov as Put);
		}

		// Far more JSON than a pipe and the reader's buffer hold: the first picture alone blocks every write.
		const instance = loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml') as Put;
		for (let i = 0; i < 3000; i++) {
			server.put(instances, {...instance, metadata: {...instance.metadata, name: `mysql-${i}`, namespace: 'default'}});
		}

		const kubeconfig = await writeKubeconfig({server: server.url, namespace: 'default'});
		const child = spawn(process.execPath, [binPath, '--kubeconfig', kubeconfig, '-o', 'json'], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', 'pipe', 'pipe']});
		// Never read: once the pipe and this side's buffer are full, the child's writes wait forever.
		child.stdout!.pause();
		const exited = exitOf(child);
		// Listed and watching: the first picture is being written.
		await waitUntil(() => server!.count({plural: 'instances', watch: true}) > 0, 'the instances watch', 60_000);
		child.kill('SIGTERM');
		const r = await exited;
		expect(r.code).toBe(130);
		expect(r.stderr).toBe('');
	});
});

describe('stdout closed', () => {
	it('is exit 2 and one line on stderr, whatever the command', async () => {
		for (const args of [['--version'], ['-f', `${repoRoot}test/fixtures/kudo/instance-mysql-deploy-in-progress.yaml`, '-o', 'plain'], ['demo', '--speed', '50', '--wait', '-o', 'plain']]) {
			// `sh -c 'exec … >&-'`: the shell closes fd 1 before planwatch starts, as a user's `planwatch … >&-` does.
			const quoted = [process.execPath, binPath, ...args].map(a => `'${a}'`).join(' ');
			const child = spawn('sh', ['-c', `exec ${quoted} >&-`], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', 'pipe', 'pipe']});
			const r = await exitOf(child);
			expect(r.code, args.join(' ')).toBe(2);
			expect(r.stderr).toBe('planwatch: stdout is closed (started with >&-): nothing could be shown; give it a file or /dev/null\n');
		}
	});

	it('> /dev/null is not closed: the run goes on as usual', async () => {
		const child = spawn('sh', ['-c', `exec '${process.execPath}' '${binPath}' --version > /dev/null`], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', 'pipe', 'pipe']});
		const r = await exitOf(child);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe('');
	});
});
