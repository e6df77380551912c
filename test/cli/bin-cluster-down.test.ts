/**
 * The built bin against a cluster that never answers a LIST properly (the in-process watch server answering
 * 503/429/HTML/[]/invalid or cut-off JSON every time): --timeout still ends the run with 3 and says what it was
 * still trying; the TUI offers its grace prompt; --once gives up with 4 and the last reason.
 */
import {describe, expect, it} from 'vitest';
import {runBin, runBinInTerminal} from '../helpers/run-bin.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {actionSets, writeKubeconfig, type RawAnswer} from '../helpers/watch-server.js';

const startServer = binAgainstFakeServers();

async function brokenCluster(answer: RawAnswer): Promise<string> {
	const server = await startServer();
	server.put(actionSets, {metadata: {name: 'a'}, spec: {actions: [{name: 'backup'}]}});
	server.answerNext({watch: false}, answer, 10_000);
	return writeKubeconfig({server: server.url});
}

const html = '<html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>';

describe('--wait --timeout against a cluster that never lists', () => {
	it.each<[string, RawAnswer, string]>([
		['503 HTML', {status: 503, body: html, contentType: 'text/html'}, 'the cluster answered 503 Service Unavailable with an HTML page ("503 Service Temporarily Unavailable")'],
		['429', {status: 429, body: JSON.stringify({kind: 'Status', code: 429, message: 'slow down'})}, 'the cluster answered 429 Too Many Requests: slow down'],
		['200 []', {status: 200, body: '[]'}, 'the cluster answered 200 OK with a JSON array, not a list of'],
		['200 invalid JSON', {status: 200, body: '{"items":['}, 'the cluster answered 200 OK with a truncated or invalid JSON document, not a list of'],
		['200 cut off', {status: 200, body: '{"kind":"ActionSetList","items":[', truncate: true}, 'the cluster answered 200 OK with a body that was cut off'],
	])('%s: exit 3 after the timeout, saying what it was still trying', async (_name, answer, reason) => {
		const kubeconfig = await brokenCluster(answer);
		// Without the fix the run never ends: the test's own timeout is the bound here (a loaded machine is slow).
		const result = await runBin(['actionset/a', '--kubeconfig', kubeconfig, '-n', 'default', '--wait', '--timeout', '2s', '-o', 'plain']);
		expect(result.code, result.stderr).toBe(3);
		expect(result.stderr).toMatch(new RegExp(`^planwatch: timed out after 2s: still connecting — ${reason.replaceAll(/[()[\]]/g, '\\$&')}.* \\(attempt \\d+\\)\\n$`));
		// The log said why it was quiet.
		expect(result.stdout).toMatch(/^times UTC\n\d\d:\d\d:\d\d cannot list yet: the cluster answered /);
	});

	it('-o json: the final snapshot and the result line, exit 3', async () => {
		const kubeconfig = await brokenCluster({status: 503, body: html, contentType: 'text/html'});
		const result = await runBin(['actionset/a', '--kubeconfig', kubeconfig, '-n', 'default', '--wait', '--timeout', '2s', '-o', 'json']);
		expect(result.code).toBe(3);
		const lines = result.stdout.trim().split('\n').map(l => JSON.parse(l) as {type: string; exitCode?: number; message?: string});
		expect(lines.map(l => l.type)).toEqual(['snapshot', 'result']);
		expect(lines[1]!.message).toMatch(/^timed out after 2s: still connecting — the cluster answered 503 Service Unavailable/);
	});

	it('the TUI shows the grace prompt, then exits 3', async () => {
		const kubeconfig = await brokenCluster({status: 503, body: html, contentType: 'text/html'});
		const result = await runBinInTerminal(['actionset/a', '--kubeconfig', kubeconfig, '-n', 'default', '--wait', '--timeout', '1s']);
		expect(result.code).toBe(3);
		expect(result.output).toContain('Timeout reached after 1s');
		expect(result.output).toContain('still connecting');
	});
});
