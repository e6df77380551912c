/**
 * Exec credential plugins as kubectl runs them (issue 19): output without end is cut off and the plugin stopped,
 * a missing command shows the kubeconfig's installHint (sanitized, one line), `interactiveMode: Always` without
 * a terminal is refused with client-go's words, `provideClusterInfo` sends spec.cluster, and a 401 after a good
 * list runs the plugin again once before the run ends with exit 4.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {runningPlugins} from '../../source/kube/exec-credential.js';
import {loadKubeconfig, type KubeconfigOptions} from '../../source/kube/kubeconfig.js';
import {createClusterSource} from '../../source/sources/cluster-source.js';
import type {SourceEvent} from '../../source/state/object-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer} from '../helpers/watch-server.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'kube');
let server: WatchServer;
let dir: string;

beforeEach(async () => {
	server = await WatchServer.start();
	server.put(actionSets, {metadata: {name: 'a'}, spec: {actions: [{name: 'backup'}]}});
	dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-exec-'));
});

afterEach(async () => {
	await server.close();
	await fs.rm(dir, {recursive: true, force: true});
});

async function script(name: string, body: string): Promise<string> {
	const file = path.join(dir, name);
	await fs.writeFile(file, `#!/bin/sh\n${body}\n`, {mode: 0o755});
	return file;
}

/** A kubeconfig whose user runs `exec` (any users[].exec fields), with `cluster` fields added to the cluster. */
async function kubeconfigWith(exec: Record<string, unknown>, cluster: Record<string, unknown> = {}): Promise<string> {
	const file = path.join(dir, 'config');
	await fs.writeFile(file, JSON.stringify({
		apiVersion: 'v1',
		kind: 'Config',
		clusters: [{name: 'c', cluster: {server: server.url, ...cluster}}],
		users: [{name: 'tester', user: {exec: {apiVersion: 'client.authentication.k8s.io/v1', args: [], ...exec}}}],
		contexts: [{name: 'ctx', context: {cluster: 'c', user: 'tester'}}],
		'current-context': 'ctx',
	}));
	return file;
}

async function fatalOf(exec: Record<string, unknown>, options: Partial<KubeconfigOptions> = {}): Promise<Extract<SourceEvent, {type: 'fatal'}>> {
	const kubeconfig = loadKubeconfig({kubeconfig: await kubeconfigWith(exec), env: {}, ...options});
	const source = createClusterSource({kubeconfig, namespace: 'default', clock: new FakeClock(), targets: []});
	const events = new Recorder<SourceEvent>();
	source.start(events.push);
	try {
		return await events.next('fatal', (e): e is Extract<SourceEvent, {type: 'fatal'}> => e.type === 'fatal');
	} finally {
		await source.stop();
	}
}

const tokenOutput = 'echo \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"test-token"}}\'';

describe('exec plugins', () => {
	it('output without end: the plugin is stopped at the limit and the run fails with one line', async () => {
		const command = await script('yes-login', 'exec yes');
		const fatal = await fatalOf({command});
		expect(fatal).toEqual({type: 'fatal', exitCode: 4, message: 'credential plugin yes-login failed: its output passed 1 MiB (an ExecCredential is a few KiB); planwatch stopped it'});
		await waitUntil(() => runningPlugins() === 0, () => `${runningPlugins()} plugins still running`);
	});

	it('a missing command shows the installHint, sanitized to one line', async () => {
		const fatal = await fatalOf({command: path.join(dir, 'no-such-login'), installHint: 'no-such-login is needed:\n  brew install \u001B[31mno-such-login\u001B[0m\n\u0007see https://example.test/install'});
		expect(fatal).toEqual({type: 'fatal', exitCode: 4, message: 'credential plugin no-such-login not found: no-such-login is needed: brew install no-such-login see https://example.test/install'});
	});

	it('a missing command without an installHint says what to fix', async () => {
		const fatal = await fatalOf({command: path.join(dir, 'no-such-login')});
		expect(fatal.message).toBe('credential plugin no-such-login not found: install it or fix users[].exec.command in the kubeconfig');
	});

	it('interactiveMode: Always without a terminal is refused, as kubectl does, without running the plugin', async () => {
		const ran = path.join(dir, 'ran');
		const command = await script('prompt-login', `touch '${ran}'\n${tokenOutput}`);
		const fatal = await fatalOf({command, interactiveMode: 'Always'}, {stdinIsTerminal: false});
		expect(fatal).toEqual({type: 'fatal', exitCode: 4, message: 'credential plugin prompt-login failed: exec plugin cannot support interactive mode: standard input is not a terminal'});
		await expect(fs.access(ran)).rejects.toThrow();
	});

	it('interactiveMode: Always with a terminal runs the plugin', async () => {
		const command = await script('prompt-login', tokenOutput);
		const kubeconfig = loadKubeconfig({kubeconfig: await kubeconfigWith({command, interactiveMode: 'Always'}), env: {}, stdinIsTerminal: true});
		await expect(kubeconfig.credentials!.credential('tester')).resolves.toEqual({token: 'test-token'});
	});

	it('provideClusterInfo: spec.cluster carries the server, the CA (from a file, as data), tls-server-name, proxy-url and the exec extension', async () => {
		const info = path.join(dir, 'info.json');
		const command = await script('info-login', `printf '%s' "$KUBERNETES_EXEC_INFO" > '${info}'\n${tokenOutput}`);
		const caFile = path.join(dir, 'ca.crt');
		await fs.copyFile(path.join(fixtures, 'other-ca.crt'), caFile);
		const file = await kubeconfigWith({command, provideClusterInfo: true}, {
			'certificate-authority': caFile,
			'tls-server-name': 'api.example.test',
			'proxy-url': 'http://127.0.0.1:1',
			'disable-compression': true,
			extensions: [{name: 'client.authentication.k8s.io/exec', extension: {audience: 'planwatch-test'}}, {name: 'other', extension: {x: 1}}],
		});
		const kubeconfig = loadKubeconfig({kubeconfig: file, env: {}});
		await kubeconfig.credentials!.credential('tester');
		expect(JSON.parse(await fs.readFile(info, 'utf8'))).toEqual({
			apiVersion: 'client.authentication.k8s.io/v1',
			kind: 'ExecCredential',
			spec: {
				interactive: false,
				cluster: {
					server: server.url,
					'certificate-authority-data': Buffer.from(await fs.readFile(caFile)).toString('base64'),
					'tls-server-name': 'api.example.test',
					'proxy-url': 'http://127.0.0.1:1',
					'disable-compression': true,
					config: {audience: 'planwatch-test'},
				},
			},
		});
	});

	it('without provideClusterInfo no cluster is sent', async () => {
		const info = path.join(dir, 'info.json');
		const command = await script('info-login', `printf '%s' "$KUBERNETES_EXEC_INFO" > '${info}'\n${tokenOutput}`);
		const kubeconfig = loadKubeconfig({kubeconfig: await kubeconfigWith({command}), env: {}});
		await kubeconfig.credentials!.credential('tester');
		expect(JSON.parse(await fs.readFile(info, 'utf8'))).toEqual({apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: {interactive: false}});
	});
});

describe('a 401 in the middle of a watch, with an exec plugin', () => {
	it('runs the plugin again; still 401 → fatal, exit 4, saying so', async () => {
		const runs = path.join(dir, 'runs');
		const command = await script('tok-login', `echo run >> '${runs}'\n${tokenOutput}`);
		const kubeconfig = loadKubeconfig({kubeconfig: await kubeconfigWith({command}), env: {}});
		const clock = new FakeClock();
		const source = createClusterSource({kubeconfig, namespace: 'default', clock, targets: [{kind: 'ActionSet', name: 'a'}], random: () => 0.5});
		const events = new Recorder<SourceEvent>();
		source.start(events.push);
		try {
			await events.next('live', e => e.type === 'connection' && e.state.status === 'live');
			const runsBefore = (await fs.readFile(runs, 'utf8')).split('\n').filter(Boolean).length;
			expect(runsBefore).toBe(1);
			// The token is revoked: every request from now on gets 401, whatever the plugin hands out.
			server.setTokens({});
			clock.advance(2000);
			server.closeWatches();
			await waitUntil(() => {
				clock.advance(500);
				return events.events.some(e => e.type === 'fatal');
			}, () => events.describe());
			const fatal = events.events.find(e => e.type === 'fatal');
			expect(fatal).toEqual({type: 'fatal', exitCode: 4, message: 'credentials rejected (401) while watching, and again with a fresh credential from tok-login: log in again'});
			const runsAfter = (await fs.readFile(runs, 'utf8')).split('\n').filter(Boolean).length;
			expect(runsAfter).toBeGreaterThan(1);
		} finally {
			await source.stop();
		}
	});
});
