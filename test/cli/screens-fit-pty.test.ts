/**
 * What gives way on the screens of issue #20, session 7, through the built bin in a pseudo-terminal rendered by
 * @xterm/headless: names and a status's reason give way (cut with a marker), never a state word, a timer or a key;
 * a line with room shows names in full; the header keeps its timers and shows the counts, for one context and for
 * several (each context's failed/running and the run's), fitted the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {killAllPtys, startPtyCli, type PtyCli} from '../e2e/harness/pty.js';
import {binAgainstFakeServers} from '../helpers/fake-servers.js';
import {actionSets, kubeconfigFor, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

// Builds the bin once for the file. Deadlines here only bound a hang: a loaded machine is slow.
const startServer = binAgainstFakeServers();
afterEach(killAllPtys);

const state = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-fit-'));
afterAll(() => {
	fs.rmSync(state, {recursive: true, force: true});
});
// No ETA history from the machine's own runs: the screen is the same everywhere.
const env = {XDG_STATE_HOME: state};
const lines = (tui: PtyCli) => tui.screen();
/** A whole frame: Ink ends each one with the end of a synchronized update. */
const framed = (tui: PtyCli) => tui.raw().endsWith('\u001B[?2026l');

/** One frame that fits: no line wrapped, nothing scrolled, the last line blank, the keys whole. */
function expectFits(tui: PtyCli, rows: number): void {
	expect(tui.logicalLines(), tui.describe()).toHaveLength(rows);
	expect(tui.maxScrolled(), tui.describe()).toBe(0);
	expect(lines(tui).at(-1), tui.describe()).toBe('');
	expect(lines(tui)[0], tui.describe()).toMatch(/^planwatch /);
	expect(lines(tui).filter(line => line.trim() !== '').at(-1), tui.describe()).toMatch(/q quit$/);
}

describe('at 80×24', () => {
	it('--ascii, a failed restore: its tree in the list and on its own screen shows every name whole; the reason gives way', async () => {
		const tui = startPtyCli(['demo', '--scenario', 'postgres-restore-failed', '--no-history', '--ascii'], {cols: 80, rows: 24, env});
		const deferRunning = /-> \[\.\.\] StartupApplication \| always runs +pending/;
		// Waits on what the old widths drew too (`StartupApplic...`), so that they fail on the assertions below.
		const shown = (text: string) => /\[XX\] RestoreFrom/.test(text) && /-> \[\.\.\] StartupApp.* pending/.test(text) && framed(tui);
		await tui.waitForScreen(shown, 'the failed step');
		expectFits(tui, 24);
		const check = () => {
			const screen = lines(tui);
			// These were `RestoreFromObj...` and `StartupApplic...`, cut for the room `pending (running per progress)` took.
			expect(screen.find(line => line.includes('[XX] RestoreFromObjectStore')), tui.describe()).toMatch(/\[XX\] RestoreFromObjectStore +failed +\d+:\d\d/);
			const defer = screen.find(line => deferRunning.test(line)) ?? '';
			// The reason cut after its word, marked; never the word (`pendin...`); the timer whole.
			expect(defer, tui.describe()).toMatch(/ always runs +pending(?: \(?[^ ]*)? +\d+:\d\d$/);
			expect(defer, tui.describe()).not.toMatch(/pendin\.\.\./);
			for (const line of screen) {
				expect(line.length, tui.describe()).toBeLessThanOrEqual(80);
			}
		};

		check();
		tui.press('\r');
		await tui.waitForScreen(text => /^ActionSet default\/restore-/m.test(text) && shown(text), 'the tree screen');
		expectFits(tui, 24);
		check();
		tui.kill();
	});

	it('the list: the header says the counts and keeps the timers; the event age is what gives way', async () => {
		const tui = startPtyCli(['demo', '--no-history'], {cols: 80, rows: 24, env});
		await tui.waitForScreen(text => text.includes('mysql-instance') && text.includes('backup-') && framed(tui), 'the demo list');
		expectFits(tui, 24);
		// The counts used to be left out at 80 columns for the event age.
		expect(lines(tui)[0], tui.describe()).toMatch(/^planwatch · demo · default · UTC · ● live · \d+ · (\d+ failed · )?\d+ running +elapsed \d+:\d\d$/);
		tui.kill();
	});

	it('--wait, the timeout\'s grace: the header keeps `elapsed … · timeout reached`', async () => {
		const tui = startPtyCli(['demo', '--scenario', 'postgres-restore-failed', '--no-history', '--wait', '--timeout', '3s'], {cols: 80, rows: 24, env});
		await tui.waitForScreen(text => text.includes('Timeout after 3s') && framed(tui), 'the grace prompt');
		expectFits(tui, 24);
		// The timers used to go here (with the event age kept in the state instead).
		expect(lines(tui)[0], tui.describe()).toMatch(/^planwatch · demo · default · UTC · ● live( \(event \d+s ago\))? +elapsed \d+:\d\d · timeout reached$/);
		tui.kill();
	});
});

const actionSet = (namespace: string, name: string, state: string) => ({
	metadata: {name, namespace},
	spec: {actions: [{name: 'backup'}]},
	status: {state, actions: [{name: 'backup', phases: [{name: 'p', state}]}]},
});

/** One kubeconfig, one context per entry (each its own cluster), the first current. */
async function kubeconfig(contexts: ReadonlyArray<{name: string; server: string}>): Promise<string> {
	const parts = contexts.map(c => kubeconfigFor({server: c.server, contextName: c.name}));
	const merged = {
		apiVersion: 'v1',
		kind: 'Config',
		clusters: parts.map((p, i) => ({...(p['clusters'] as Array<Record<string, unknown>>)[0], name: `cluster-${i}`})),
		users: parts[0]!['users'] as unknown[],
		contexts: parts.map((p, i) => {
			const c = (p['contexts'] as Array<{name: string; context: Record<string, unknown>}>)[0]!;
			return {name: c.name, context: {...c.context, cluster: `cluster-${i}`}};
		}),
		'current-context': contexts[0]!.name,
	};
	// writeKubeconfig makes (and removes) the temporary directory; its file is overwritten with the merged one.
	const file = await writeKubeconfig({server: contexts[0]!.server});
	fs.writeFileSync(file, JSON.stringify(merged));
	return file;
}

describe('several contexts', () => {
	/** Two clusters with failed, running and finished ActionSets, and a third context nothing listens for. */
	async function contexts(): Promise<string[]> {
		const prod = await startServer();
		for (const [i, state] of ['failed', 'failed', 'running', 'complete', 'complete'].entries()) {
			prod.put(actionSets, actionSet('default', `backup-production-database-${i}`, state));
		}

		const dr = await startServer();
		dr.put(actionSets, actionSet('restore', 'restore-0', 'failed'));
		dr.put(actionSets, actionSet('restore', 'restore-1', 'complete'));
		const down = await WatchServer.start();
		const downUrl = down.url;
		await down.close();
		const config = await kubeconfig([
			{name: 'production-eu-west-1', server: prod.url},
			{name: 'dr', server: dr.url},
			{name: 'staging', server: downUrl},
		]);
		return ['--kubeconfig', config, '--context', 'production-eu-west-1', '--context', 'dr', '--context', 'staging', '-A'];
	}

	const listed = (text: string) => text.includes('restore-1') && /^. . production-eu-west-1 +ActionSet/m.test(text) && /^planwatch .*staging/.test(text);

	it('200×60: each context\'s counts after its state, the run\'s at the end, the event age and timers at the right', async () => {
		const tui = startPtyCli(await contexts(), {cols: 200, rows: 60, env});
		await tui.waitForScreen(text => listed(text) && /production-eu-west-1 ✔.* dr ✔.* staging ✖ failed/.test(text) && framed(tui), 'both clusters live');
		expectFits(tui, 60);
		const [header] = lines(tui);
		expect(header, tui.describe()).toMatch(/^planwatch · all namespaces · UTC · production-eu-west-1 ✔ 2 failed, 1 running · dr ✔ 1 failed · staging ✖ failed/);
		expect(header, tui.describe()).toMatch(/ staging ✖ failed( \(.*\))? · 7 · 3 failed · 1 running +event \d+s ago · elapsed \d+:\d\d$/);
		tui.kill();
	});

	it('80×24: the state words whole, the fine contexts counted, every cut marked, the timers kept', async () => {
		for (const ascii of [false, true]) {
			const tui = startPtyCli([...await contexts(), ...(ascii ? ['--ascii'] : [])], {cols: 80, rows: 24, env});
			const settled = (text: string) => !/connecting|listing/.test(text.split('\n')[0]!);
			const all = (text: string) => (text.match(/ActionSet/g) ?? []).length === 7;
			await tui.waitForScreen(text => text.includes('restore-1') && all(text) && settled(text) && framed(tui), 'the list of both clusters');
			expectFits(tui, 24);
			// `staging [XX] ...` and a silently lost `2 live` before.
			const header = ascii
				? /^planwatch \| all namespaces \| UTC \| staging \[XX\] failed \| 2 live( \| 7 \| 3 failed \| 1 running)? +elapsed \d+:\d\d$/
				: /^planwatch · all namespaces · UTC · staging ✖ failed · 2 live( · 7 · 3 failed · 1 running)? +elapsed \d+:\d\d$/;
			expect(lines(tui)[0], tui.describe()).toMatch(header);
			tui.kill();
		}
	});
});
