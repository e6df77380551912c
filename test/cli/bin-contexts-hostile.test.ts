/**
 * Several contexts through the built bin when one of them misbehaves (issue 19): a context that answers 403 makes
 * a `--wait --timeout` that runs out end with the worst code (4), the timeout line naming the context it was about;
 * a context whose credential plugin hangs does not hold up the `--once` picture of the others.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {runBin} from '../helpers/run-bin.js';
import {actionSets, kubeconfigFor, writeKubeconfig} from '../helpers/watch-server.js';

const server = binAgainstFakeServers();

const running = (namespace: string) => ({
	metadata: {name: 'slow', namespace},
	spec: {actions: [{name: 'backup'}]},
	status: {state: 'running', actions: [{name: 'backup', phases: [{name: 'p', state: 'running'}]}]},
});

const complete = (namespace: string) => ({
	metadata: {name: 'a', namespace},
	spec: {actions: [{name: 'backup'}]},
	status: {state: 'complete', actions: [{name: 'backup', phases: [{name: 'p', state: 'complete'}]}]},
});

type ContextSpec = {readonly name: string; readonly server: string; readonly exec?: string};

/** One kubeconfig, one context (with its own cluster and user) per entry, the first current. */
async function kubeconfig(contexts: readonly ContextSpec[]): Promise<string> {
	const parts = contexts.map(c => kubeconfigFor({server: c.server, contextName: c.name, ...(c.exec ? {exec: {command: c.exec}} : {})}));
	const merged = {
		apiVersion: 'v1',
		kind: 'Config',
		clusters: parts.map((p, i) => ({...(p['clusters'] as Array<Record<string, unknown>>)[0], name: `cluster-${i}`})),
		users: parts.map((p, i) => ({...(p['users'] as Array<Record<string, unknown>>)[0], name: `user-${i}`})),
		contexts: parts.map((p, i) => {
			const c = (p['contexts'] as Array<{name: string; context: Record<string, unknown>}>)[0]!;
			return {name: c.name, context: {...c.context, cluster: `cluster-${i}`, user: `user-${i}`}};
		}),
		'current-context': contexts[0]!.name,
	};
	const file = await writeKubeconfig({server: contexts[0]!.server});
	await fs.writeFile(file, JSON.stringify(merged));
	return file;
}

describe('several contexts, one refusing (403)', () => {
	it('--all-contexts --wait --timeout that runs out: exit 4 (the worst), and the timeout line names the context', async () => {
		const up = await server();
		up.put(actionSets, running('default'));
		const refusing = await server();
		refusing.forbid('tester', 'actionsets');
		refusing.forbid('tester', 'instances');
		const config = await kubeconfig([{name: 'up', server: up.url}, {name: 'refusing', server: refusing.url}]);
		const result = await runBin(['--kubeconfig', config, '--all-contexts', '--wait', '--timeout', '2s', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(4);
		const lines = result.stderr.trim().split('\n');
		// One line says both: the context that refused, and what the timeout was waiting for (named by its context).
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(
			// eslint-disable-next-line @stylistic/max-len -- the expected message, as one regular expression
			/^planwatch: context refusing: forbidden: user tester cannot list (actionsets|instances)[^;]*; planwatch needs [^;]*; timed out after 2s: waiting for up:default\/slow: backup running phase p \(0%\)/,
		);
	});

	it('a context that may list but not watch (403 on the watch) gives up the same way: exit 4, named', async () => {
		const up = await server();
		up.put(actionSets, running('default'));
		const refusing = await server();
		refusing.forbid('tester', 'actionsets', ['watch']);
		refusing.forbid('tester', 'instances', ['watch']);
		const config = await kubeconfig([{name: 'up', server: up.url}, {name: 'refusing', server: refusing.url}]);
		const result = await runBin(['--kubeconfig', config, '--all-contexts', '--wait', '--timeout', '2s', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(4);
		expect(result.stderr).toMatch(/^planwatch: context refusing: forbidden: user tester cannot watch (actionsets|instances)/);
	});
});

describe('several contexts, one with a credential plugin that hangs', () => {
	it('--once --all-contexts: the others are drawn within the --once budget; the hanging one is named, exit 4', async () => {
		const up = await server();
		up.put(actionSets, complete('default'));
		const other = await server();
		const dir = path.dirname(await writeKubeconfig({server: other.url}));
		const plugin = path.join(dir, 'hang-login');
		// It never answers; planwatch would wait 3 minutes for it.
		await fs.writeFile(plugin, '#!/bin/sh\nexec sleep 1000\n', {mode: 0o755});
		const config = await kubeconfig([{name: 'up', server: up.url}, {name: 'stuck', server: other.url, exec: plugin}]);
		const result = await runBin(['--kubeconfig', config, '--all-contexts', '--once', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(4);
		expect(result.stdout).toMatch(/^ActionSet up:default\/a/m);
		expect(result.stderr).toBe('planwatch: context stuck: still waiting for credentials from hang-login\n');
		// The picture came at the --once budget (30 s), not after the plugin's own 3 minutes.
	});
});
