/**
 * kubectl habits through the built bin: `help` is a command (not a target), a command's page fits 80 columns, a
 * typo gets one line with a suggestion and exit 2, and `-v=6` prints one line per HTTP request on stderr — live
 * when stderr is a pipe, after the TUI has left the screen when stderr is its terminal. On 127.0.0.1.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {killAllPtys, startPtyCli} from '../e2e/harness/pty.js';
import {helpFor, helpText} from '../../source/cli/help-text.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {runBin, runBinInTerminal} from '../helpers/run-bin.js';
import {actionSets, writeKubeconfig} from '../helpers/watch-server.js';

const server = binAgainstFakeServers();
afterEach(killAllPtys);

const completeActionSet = {
	metadata: {name: 'a', namespace: 'default'},
	spec: {actions: [{name: 'backup'}]},
	status: {state: 'complete', actions: [{name: 'backup', phases: [{name: 'p', state: 'complete'}]}]},
};

/** One request line as -v=6 prints it: time, method, URL, status, milliseconds. */
const requestLine = /^\d{4}-\d\d-\d\dT[\d:.]+Z GET http:\/\/127\.0\.0\.1:\d+\/apis\/cr\.kanister\.io\/v1alpha1\/namespaces\/default\/actionsets\?\S+ 200 OK in \d+ milliseconds$/;

describe('help and typos', () => {
	it('planwatch help prints the reference and exits 0; help demo and demo --help print the demo page', async () => {
		const help = await runBin(['help']);
		expect([help.code, help.stderr]).toEqual([0, '']);
		expect(help.stdout).toBe(helpText);
		for (const args of [['help', 'demo'], ['demo', '--help']]) {
			const page = await runBin(args);
			expect([page.code, page.stdout]).toEqual([0, helpFor('demo')]);
		}
	});

	it('a mistyped command is one line with a suggestion, exit 2', async () => {
		const typo = await runBin(['replya', 'x.ndjson']);
		expect(typo.code).toBe(2);
		expect(typo.stderr).toBe('planwatch: "replya" is not a command, kind or target: did you mean replay? (see planwatch --help)\n');
		const kind = await runBin(['instanse/foo']);
		expect([kind.code, kind.stderr]).toEqual([2, 'planwatch: unknown kind "instanse" in "instanse/foo": did you mean "instance/foo"? (see planwatch --help)\n']);
	});
});

describe('-v=6', () => {
	it('prints one line per request on stderr (a pipe: as they happen); without -v, none', async () => {
		const up = await server();
		up.put(actionSets, completeActionSet);
		const config = await writeKubeconfig({server: up.url});
		const quiet = await runBin(['--kubeconfig', config, 'actionsets', '--once', '-o', 'plain']);
		expect([quiet.code, quiet.stderr]).toEqual([0, '']);

		const listsBefore = up.count({plural: 'actionsets', watch: false});
		const verbose = await runBin(['--kubeconfig', config, 'actionsets', '--once', '-o', 'plain', '-v=6']);
		expect(verbose.code, verbose.stderr).toBe(0);
		expect(verbose.stdout).toBe(quiet.stdout);
		const lines = verbose.stderr.trimEnd().split('\n');
		for (const line of lines.filter(l => l.includes('/actionsets?'))) {
			expect(line).toMatch(requestLine);
		}

		// The list of ActionSets the server answered is logged, once.
		const lists = lines.filter(l => /\/actionsets\?limit=500 200 OK/.test(l));
		expect(lists).toHaveLength(up.count({plural: 'actionsets', watch: false}) - listsBefore);
		expect(lists).toHaveLength(1);
	});

	it('under the TUI, the lines come once it has left the screen, never inside the picture', async () => {
		const up = await server();
		up.put(actionSets, completeActionSet);
		const config = await writeKubeconfig({server: up.url});
		const {code, output} = await runBinInTerminal(['--kubeconfig', config, 'actionset/a', '--wait', '-v=6', '--notify', 'never']);
		expect(code, output).toBe(0);
		const first = output.search(/\d{4}-\d\d-\d\dT[\d:.]+Z GET /);
		expect(first, output).toBeGreaterThan(0);
		// After the first line, only lines: no cursor movement or erasing of a frame drawn over them.
		const after = output.slice(first);
		expect(after).toMatch(/GET \S+ 200 OK in \d+ milliseconds/);
		expect(after.replaceAll(/\u001B\[\?25h/g, '')).not.toMatch(/\u001B\[[\d;]*[ABCDHJKf]/);
	});
});

describe('leaving a live view', () => {
	it('q after the demo showed a failed restore exits 0 (no --wait: nothing was waited for)', async () => {
		const tui = startPtyCli(['demo', '--scenario', 'postgres-restore-failed', '--speed', '20', '--notify', 'never']);
		// The ActionSet has failed for good (the demo's restore fails on purpose): its tree shows the deferPhase done.
		await tui.waitForText(/restore +✖ failed/, 60_000);
		tui.press('\r');
		await tui.waitForText(/StartupApplication · always runs +complete/, 60_000);
		tui.press('q');
		expect((await tui.waitForExit(30_000)).exitCode, tui.describe()).toBe(0);
	});
});
