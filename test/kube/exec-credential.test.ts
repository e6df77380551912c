/**
 * planwatch's own exec credential runner: a plugin that hangs is stopped after the bound (and everything it
 * started with it), stop() kills it at once, and the built bin leaves no plugin process behind on any exit:
 * --timeout, SIGTERM while the live log runs, SIGTERM during --once.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {createClusterSource} from '../../source/sources/cluster-source.js';
import {parseCredential, runningPlugins} from '../../source/kube/exec-credential.js';
import {loadKubeconfig} from '../../source/kube/kubeconfig.js';
import type {SourceEvent} from '../../source/state/object-source.js';
import {SystemClock} from '../../source/core/clock.js';
import {binEnv, binPath, buildBin, repoRoot} from '../helpers/run-bin.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let dir: string;

beforeAll(() => {
	buildBin();
});

beforeEach(async () => {
	server = await WatchServer.start();
	server.put(actionSets, {metadata: {name: 'a'}, spec: {actions: [{name: 'backup'}]}});
	dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-hang-'));
});

afterEach(async () => {
	await server.close();
	await fs.rm(dir, {recursive: true, force: true});
});

/** A plugin that never answers; it writes its own pid and its child's (a sleep) to `pids`. */
async function hangingPlugin(): Promise<{command: string; pids: () => Promise<number[]>}> {
	const command = path.join(dir, 'hang-login');
	const pidFile = path.join(dir, 'pids');
	await fs.writeFile(command, `#!/bin/sh\nsleep 1000 &\necho "$$ $!" > '${pidFile}'\nwait\n`, {mode: 0o755});
	return {
		command,
		async pids() {
			const deadline = Date.now() + 10_000;
			for (;;) {
				const text = await fs.readFile(pidFile, 'utf8').catch(() => '');
				if (/^\d+ \d+\n$/.test(text)) {
					return text.trim().split(' ').map(Number);
				}

				if (Date.now() > deadline) {
					throw new Error('the plugin did not write its pids');
				}

				await new Promise(resolve => {
					setTimeout(resolve, 20);
				});
			}
		},
	};
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function expectGone(pids: readonly number[]): Promise<void> {
	await waitUntil(() => pids.every(pid => !alive(pid)), () => `processes still running: ${pids.filter(pid => alive(pid)).join(', ')}`);
}

describe('a credential plugin that hangs', () => {
	it('is stopped after the bound with its children; the source fails with one line', async () => {
		const plugin = await hangingPlugin();
		const kubeconfig = loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url, exec: {command: plugin.command}}), env: {}, execTimeoutMs: 1000});
		const source = createClusterSource({kubeconfig, namespace: 'default', clock: new SystemClock(), targets: []});
		const events = new Recorder<SourceEvent>();
		source.start(events.push);
		const pids = await plugin.pids();
		const fatal = await events.next('fatal', e => e.type === 'fatal');
		expect(fatal).toEqual({type: 'fatal', exitCode: 4, message: 'credential plugin hang-login failed: no answer within 1s; planwatch stopped it'});
		await expectGone(pids);
		expect(runningPlugins()).toBe(0);
		await source.stop();
	});

	it('stop() kills it and its children at once', async () => {
		const plugin = await hangingPlugin();
		const kubeconfig = loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url, exec: {command: plugin.command}}), env: {}});
		const source = createClusterSource({kubeconfig, namespace: 'default', clock: new SystemClock(), targets: []});
		const events = new Recorder<SourceEvent>();
		source.start(events.push);
		const pids = await plugin.pids();
		expect(events.events[0]).toEqual({type: 'connection', state: {status: 'waiting-credentials', plugin: 'hang-login', limitMs: 180_000}});
		await source.stop();
		await expectGone(pids);
		expect(events.events.some(e => e.type === 'fatal')).toBe(false);
	});
});

/** Run the built bin against the hanging plugin; `signal` is sent once the plugin runs. */
async function runWithPlugin(args: readonly string[], signal?: NodeJS.Signals): Promise<{code: number | null; stdout: string; stderr: string; pids: number[]}> {
	const plugin = await hangingPlugin();
	const kubeconfig = await writeKubeconfig({server: server.url, exec: {command: plugin.command}});
	const child = spawn(process.execPath, [binPath, '--kubeconfig', kubeconfig, ...args], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	const closed = new Promise<number | null>(resolve => {
		child.on('close', code => {
			resolve(code);
		});
	});
	const pids = await plugin.pids();
	if (signal) {
		child.kill(signal);
	}

	return {code: await closed, stdout, stderr, pids};
}

describe('the bin never leaves the plugin running', () => {
	it('--wait --timeout: exit 3 saying it was still waiting for credentials', async () => {
		const result = await runWithPlugin(['actionset/a', '-n', 'default', '--wait', '--timeout', '2s', '-o', 'plain']);
		expect(result.code).toBe(3);
		expect(result.stderr).toBe('planwatch: timed out after 2s: still waiting for credentials from hang-login\n');
		expect(result.stdout).toMatch(/^times UTC\n\d\d:\d\d:\d\d waiting for credentials from hang-login \(gives up after 3m\)\n/);
		await expectGone(result.pids);
	});

	it('SIGTERM during the live log: exit 130', async () => {
		const result = await runWithPlugin(['actionset/a', '-n', 'default', '--wait', '-o', 'plain'], 'SIGTERM');
		expect(result.code).toBe(130);
		await expectGone(result.pids);
	});

	it('SIGTERM during --once -o json', async () => {
		const result = await runWithPlugin(['actionset/a', '-n', 'default', '--once', '-o', 'json'], 'SIGTERM');
		expect(result.code).toBe(130);
		await expectGone(result.pids);
	});
});

describe('parseCredential', () => {
	it.each([
		['{"status":{"token":"t"}}', {token: 't'}],
		['{"status":{"token":"t","expirationTimestamp":"2030-01-01T00:00:00Z"}}', {token: 't', expiresAt: Date.parse('2030-01-01T00:00:00Z')}],
		['{"status":{"clientCertificateData":"C","clientKeyData":"K"}}', {cert: 'C', key: 'K'}],
	])('%s', (stdout, credential) => {
		expect(parseCredential(stdout)).toEqual(credential);
	});

	it.each([
		['not json', 'its output is not an ExecCredential (not JSON)'],
		['{}', 'its ExecCredential has no status'],
		['{"status":{"clientCertificateData":"C"}}', 'its ExecCredential has neither a token nor a client certificate and key'],
	])('%s fails: %s', (stdout, message) => {
		expect(() => parseCredential(stdout)).toThrow(message);
	});
});
