/**
 * The e2e harness's process helpers (test/helpers/processes.ts), checked without a cluster: the e2e suite only
 * runs where etcd and a kube-apiserver are built, and a broken helper there shows up as a cluster that never starts.
 */
import type {ChildProcess} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {run, spawnLogged, tail, waitFor} from './processes.js';
import {waitUntil} from './wait-until.js';

const node = process.execPath;
const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-processes-'));

describe('run', () => {
	it('feeds the input, collects both outputs and the exit code, and passes stderr on as it comes', async () => {
		let passedOn = '';
		const stderrTo = new Writable({
			write(chunk: Buffer, _encoding, done) {
				passedOn += chunk.toString();
				done();
			},
		});
		const script = "let s = ''; process.stdin.on('data', d => s += d).on('end', () => { process.stdout.write('out:' + s); "
			+ "process.stderr.write('err:' + process.env.GREETING + ':' + process.cwd()); process.exit(3); });";
		const result = await run(node, ['-e', script], {input: 'hello', env: {...process.env, GREETING: 'hi'}, cwd: dir, stderrTo});
		expect(result).toMatchObject({stdout: 'out:hello', stderr: `err:hi:${dir}`, code: 3});
		expect(passedOn).toBe(`err:hi:${dir}`);
		expect(typeof result.endedAt).toBe('number');
	});

	it('a command killed by a signal: code 128; one that ignores its stdin still ends', async () => {
		expect((await run(node, ['-e', "process.kill(process.pid, 'SIGKILL')"], {input: 'x'.repeat(1 << 20)})).code).toBe(128);
		expect((await run(node, ['-e', 'process.stdout.write("done")'])).stdout).toBe('done');
	});

	it('a command that does not exist: rejected', async () => {
		await expect(run(path.join(dir, 'no-such-command'), [])).rejects.toThrow(/ENOENT/);
	});
});

describe('spawnLogged', () => {
	it('appends both outputs to the log, writes the pid and holds the child until it exits', async () => {
		const log = path.join(dir, 'server.log');
		writeFileSync(log, 'before\n');
		const pidFile = path.join(dir, 'server.pid');
		const children = new Set<ChildProcess>();
		const script = "console.log('to stdout'); console.error('to stderr ' + process.env.MARK); setInterval(() => {}, 1000);";
		const {child, exited} = await spawnLogged(node, ['-e', script], {log, pidFile, env: {...process.env, MARK: 'm'}, children});
		expect(children.has(child)).toBe(true);
		expect(readFileSync(pidFile, 'utf8')).toBe(String(child.pid));
		await waitUntil(() => readFileSync(log, 'utf8').includes('to stderr m'), 'both lines in the log');
		child.kill('SIGTERM');
		await exited;
		expect(children.size).toBe(0);
		expect(readFileSync(log, 'utf8').split('\n').slice(0, 3).sort()).toEqual(['before', 'to stderr m', 'to stdout']);
	});

	it('a binary that does not exist: exited resolves and the child is let go', async () => {
		const children = new Set<ChildProcess>();
		const {exited} = await spawnLogged(path.join(dir, 'no-such-server'), [], {log: path.join(dir, 'x.log'), pidFile: path.join(dir, 'x.pid'), children});
		await exited;
		expect(children.size).toBe(0);
	});
});

describe('tail', () => {
	it('the last lines of a file, nothing for a missing one', () => {
		const file = path.join(dir, 'lines.log');
		writeFileSync(file, ['a', 'b', 'c', 'd'].join('\n'));
		expect(tail(file, 2)).toBe('c\nd');
		expect(tail(file)).toBe('a\nb\nc\nd');
		expect(tail(path.join(dir, 'missing.log'))).toBe('');
	});
});

describe('waitFor', () => {
	it('polls until the probe gives a value; a probe that throws counts as not yet', async () => {
		let calls = 0;
		const value = await waitFor('the third call', 60_000, async () => {
			calls++;
			if (calls === 1) {
				throw new Error('not up');
			}
			return calls === 3 ? 'ready' : undefined;
		});
		expect(value).toBe('ready');
		expect(calls).toBe(3);
	});

	it('past the time: names what it waited for, the last error and the detail', async () => {
		await expect(waitFor('the server', 0, async () => {
			throw new Error('connection refused');
		}, () => 'last log line')).rejects.toThrow(/^timed out after 0 ms waiting for the server: connection refused\nlast log line$/);
	});
});
