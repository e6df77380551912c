/**
 * A 403 on a supporting kind (events here) degrades: `--once` still draws the targets and says what the picture
 * is drawn without — on stderr for plain and the TUI frame, as the "missing" key for JSON — and exits by outcome.
 */
import {expect, it} from 'vitest';
import {runBin} from '../helpers/run-bin.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {actionSets, writeKubeconfig} from '../helpers/watch-server.js';

const startServer = binAgainstFakeServers();

async function clusterWithoutEvents(): Promise<string> {
	const server = await startServer();
	server.forbid('tester', 'events');
	server.put(actionSets, {metadata: {name: 'a'}, spec: {actions: [{name: 'backup'}]}, status: {state: 'complete', actions: [{name: 'backup', phases: [{name: 'p', state: 'complete'}]}]}});
	return writeKubeconfig({server: server.url});
}

it('--once -o plain draws the targets and says on stderr what is missing', async () => {
	const kubeconfig = await clusterWithoutEvents();
	const result = await runBin(['actionset/a', '--kubeconfig', kubeconfig, '-n', 'default', '--once', '-o', 'plain']);
	expect(result.code, result.stderr).toBe(0);
	expect(result.stdout).toContain('ActionSet default/a');
	expect(result.stderr).toMatch(/^planwatch: events not watched: forbidden: user tester cannot list events/);
	expect(result.stderr.trim().split('\n')).toHaveLength(1);
});

it('--once -o json keeps stderr empty and lists what is missing in the document', async () => {
	const kubeconfig = await clusterWithoutEvents();
	const result = await runBin(['actionset/a', '--kubeconfig', kubeconfig, '-n', 'default', '--once', '-o', 'json']);
	expect(result.code, result.stderr).toBe(0);
	expect(result.stderr).toBe('');
	const document = JSON.parse(result.stdout) as {missing?: Array<{resource: string}>};
	expect(document.missing?.map(m => m.resource)).toEqual(['Event']);
});
