/**
 * Several contexts through the built bin: two kubeconfig contexts pointing at two loopback fake apiservers, one
 * of them down (nothing listens on its port) or refusing the targets' kind (403). The working context is drawn and
 * waited for; the other shows its error; the exit code is the worst of the two. One context stays as it was.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {runBin} from '../helpers/run-bin.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {actionSets, kubeconfigFor, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

const completeActionSet = (namespace: string) => ({
	metadata: {name: 'a', namespace},
	spec: {actions: [{name: 'backup'}]},
	status: {state: 'complete', actions: [{name: 'backup', phases: [{name: 'p', state: 'complete'}]}]},
});

const server = binAgainstFakeServers();

/** A port nothing listens on: a server started and closed again. */
async function downUrl(): Promise<string> {
	const s = await WatchServer.start();
	const {url} = s;
	await s.close();
	return url;
}

/** One kubeconfig, one context per entry (each its own cluster), the first current. */
async function kubeconfig(contexts: ReadonlyArray<{name: string; server: string; namespace?: string}>): Promise<string> {
	const parts = contexts.map(c => kubeconfigFor({server: c.server, contextName: c.name, ...(c.namespace ? {namespace: c.namespace} : {})}));
	const merged = {
		apiVersion: 'v1',
		kind: 'Config',
		clusters: parts.map((p, i) => ({...(p['clusters'] as Array<Record<string, unknown>>)[0], name: `cluster-${i}`})),
		users: (parts[0]!['users'] as unknown[]),
		contexts: parts.map((p, i) => {
			const c = (p['contexts'] as Array<{name: string; context: Record<string, unknown>}>)[0]!;
			return {name: c.name, context: {...c.context, cluster: `cluster-${i}`}};
		}),
		'current-context': contexts[0]!.name,
	};
	// writeKubeconfig writes its own spec: reuse its temporary directory handling, then overwrite the file.
	const file = await writeKubeconfig({server: contexts[0]!.server});
	const fs = await import('node:fs/promises');
	await fs.writeFile(file, JSON.stringify(merged));
	return file;
}

describe('several contexts, one down', () => {
	it('--once -o json: the working context is drawn with its context, the down one is on stderr, exit 4', async () => {
		const up = await server();
		up.put(actionSets, completeActionSet('default'));
		const config = await kubeconfig([{name: 'up', server: up.url}, {name: 'down', server: await downUrl()}]);
		const result = await runBin(['--kubeconfig', config, '--context', 'up', '--context', 'down', '--once', '-o', 'json']);
		expect(result.code, result.stderr).toBe(4);
		const document = JSON.parse(result.stdout) as {objects: Array<{context?: string; namespace: string; name: string; outcome: string}>};
		expect(document.objects.map(o => [o.context, o.namespace, o.name, o.outcome])).toEqual([['up', 'default', 'a', 'succeeded']]);
		expect(result.stderr).toMatch(/^planwatch: context down: cannot reach the cluster at 127\.0\.0\.1:\d+: connection refused\n$/);
	});

	it('--wait -o plain: the target in the working context finishes; the context refused (403) is in the code', async () => {
		const up = await server();
		up.put(actionSets, completeActionSet('default'));
		const refusing = await server();
		refusing.put(actionSets, completeActionSet('default'));
		refusing.forbid('tester', 'actionsets');
		const config = await kubeconfig([{name: 'up', server: up.url}, {name: 'refusing', server: refusing.url}]);
		const result = await runBin(['--kubeconfig', config, '--context', 'up', '--context', 'refusing', 'actionset/a', '--wait', '--timeout', '30s', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(4);
		expect(result.stdout).toContain('ActionSet up:default/a');
		expect(result.stdout).not.toContain('refusing:default/a');
		expect(result.stderr).toMatch(/^planwatch: context refusing: forbidden: user tester cannot list actionsets/);
		// The log said so when it happened.
		expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d context refusing: forbidden: user tester cannot list actionsets/m);
	});

	it('CONTEXT:actionset/NAME waits for one object in one context; a failure there is exit 1', async () => {
		const prod = await server();
		prod.put(actionSets, completeActionSet('default'));
		const dr = await server();
		dr.put(actionSets, {
			metadata: {name: 'restore', namespace: 'default'},
			spec: {actions: [{name: 'restore'}]},
			status: {state: 'failed', error: {message: 'restore failed'}, actions: [{name: 'restore', phases: [{name: 'p', state: 'failed'}]}]},
		});
		const config = await kubeconfig([{name: 'prod', server: prod.url}, {name: 'dr', server: dr.url}]);
		const result = await runBin(['--kubeconfig', config, 'prod:actionset/a', 'dr:as/restore', '--wait', '--timeout', '30s', '-o', 'json']);
		expect(result.code, result.stderr).toBe(1);
		const lines = result.stdout.trim().split('\n').map(l => JSON.parse(l) as {type: string; objects?: Array<{context: string; name: string}>; exitCode?: number});
		expect(lines[0]!.objects!.map(o => [o.context, o.name])).toEqual([['dr', 'restore'], ['prod', 'a']]);
		expect(lines.at(-1)).toMatchObject({type: 'result', exitCode: 1});
	});
});

describe('contexts on one apiserver', () => {
	it('--all-contexts: the same namespace/name in two contexts are two rows, each named by its context', async () => {
		const one = await server();
		one.put(actionSets, completeActionSet('team-a'));
		one.put(actionSets, completeActionSet('team-b'));
		const config = await kubeconfig([{name: 'a', server: one.url, namespace: 'team-a'}, {name: 'b', server: one.url, namespace: 'team-a'}]);
		const result = await runBin(['--kubeconfig', config, '--all-contexts', '--once', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/^ActionSet a:team-a\/a/m);
		expect(result.stdout).toMatch(/^ActionSet b:team-a\/a/m);
	});

	it('one context: no context anywhere, as always', async () => {
		const one = await server();
		one.put(actionSets, completeActionSet('default'));
		const config = await kubeconfig([{name: 'a', server: one.url}, {name: 'b', server: one.url}]);
		const result = await runBin(['--kubeconfig', config, '--context', 'b', '--once', '-o', 'json']);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).not.toContain('"context"');
		const plain = await runBin(['--kubeconfig', config, 'b:actionset/a', '--once', '-o', 'plain']);
		expect(plain.stdout).toMatch(/^ActionSet default\/a/m);
	});

	it('usage errors: a context not watched, --context with --all-contexts, an unknown context', async () => {
		const one = await server();
		const config = await kubeconfig([{name: 'a', server: one.url}, {name: 'b', server: one.url}]);
		const notWatched = await runBin(['--kubeconfig', config, '--context', 'a', 'c:instance/x', '-o', 'plain']);
		expect(notWatched.code).toBe(2);
		expect(notWatched.stderr).toBe('planwatch: target c:instance/x names context c, but the contexts watched are a\n');
		const both = await runBin(['--kubeconfig', config, '--context', 'a', '--all-contexts', '-o', 'plain']);
		expect(both.code).toBe(2);
		expect(both.stderr).toMatch(/^planwatch: use either --context or --all-contexts, not both/);
		const unknown = await runBin(['--kubeconfig', config, '--context', 'a', '--context', 'nope', '-o', 'plain', '--once']);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/^planwatch: context nope not found in kubeconfig/);
	});
});

describe('a recording of several contexts', () => {
	it('replays to the same end: each context its own objects, the wait over both (the first context that listed does not start the replay)', async () => {
		const start = Date.parse('2026-11-30T11:00:00Z');
		const at = (ms: number) => new Date(start + ms).toISOString();
		const instance = (status: string) => ({apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'mysql', namespace: 'prod'}, spec: {}, status: {planStatus: {deploy: {status}}}});
		const lines = [
			{recording: 'planwatch/1', version: '0.1.0', source: 'cluster', context: 'east, west', namespace: 'prod', targets: [], waitFor: [], start: at(0)},
			{at: at(1), context: 'east', type: 'connection', state: {status: 'live'}},
			{at: at(2), context: 'east', type: 'replace', resource: 'Instance', namespace: 'prod', objects: [instance('COMPLETE')]},
			{at: at(2), context: 'east', type: 'synced'},
			{at: at(400), context: 'west', type: 'connection', state: {status: 'live'}},
			{at: at(400), type: 'connection', state: {status: 'live'}},
			{at: at(500), context: 'west', type: 'replace', resource: 'Instance', namespace: 'prod', objects: [instance('FATAL_ERROR')]},
			{at: at(500), context: 'west', type: 'synced'},
			{at: at(500), type: 'synced'},
			{at: at(900), type: 'end'},
		];
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'planwatch-ctx-rec-')), 'r.ndjson');
		writeFileSync(file, lines.map(l => JSON.stringify(l)).join('\n') + '\n');
		const result = await runBin(['replay', file, '--wait', '-o', 'json']);
		expect(result.code, result.stderr).toBe(1);
		const out = result.stdout.trim().split('\n').map(l => JSON.parse(l) as {type: string; objects?: Array<{context: string; outcome: string}>});
		expect(out[0]!.objects!.map(o => [o.context, o.outcome])).toEqual([['east', 'succeeded'], ['west', 'failed']]);
	});
});
