/**
 * The interactive TUI in a pseudo-terminal against a real kube-apiserver (keys in, screen out), and hostile
 * objects the apiserver accepts — escape sequences, bidi and zero-width characters, a 300-step plan, unknown
 * and missing status — drawn safely by every output mode: no escape sequence from an object string reaches the
 * terminal, the terminal title never changes, and the TUI frame in a 30-row terminal never exceeds 30 rows.
 */
import {loadAllYaml} from '@kubernetes/client-node';
import {readFileSync} from 'node:fs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {isForbiddenCodePoint} from '../../source/model/sanitize.js';
import {uncleanStrings} from '../helpers/clean-strings.js';
import {cliFinal, killAllClis, repoRoot, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {killAllPtys, startPtyCli, type PtyCli} from './harness/pty.js';
import {record} from './harness/results.js';
import {freshNamespace, lastStatusIndex, launchIndex, playWatched, scenarioNamed} from './harness/scenario-run.js';
import {compareWithServer, readServer} from './harness/server-picture.js';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
});

// Not afterEach: tests of a concurrent block share the process, and each CLI ends with its test anyway.
afterAll(async () => {
	killAllClis();
	killAllPtys();
	await cluster?.stop();
});

/** Start a scenario in the background; resolves once `launch` ran (planwatch is up), with the play's promise. */
async function playInBackground(
	options: {scenario: string; namespace: string; speed: number; target: string; launch: () => Promise<void>},
): Promise<{playing: Promise<unknown>; abort: AbortController}> {
	const scenario = scenarioNamed(options.scenario);
	const abort = new AbortController();
	let launched!: () => void;
	const up = new Promise<void>(resolve => {
		launched = resolve;
	});
	const playing = playWatched(scenario, {
		kubeconfig: cluster.adminKubeconfig,
		namespace: options.namespace,
		speed: options.speed,
		launchAfter: launchIndex(scenario, options.target),
		signal: abort.signal,
		launch: async () => {
			await options.launch();
			launched();
		},
	}).then(() => undefined, (error: unknown) => (abort.signal.aborted ? undefined : error));
	await Promise.race([up, playing.then(error => {
		throw error ?? new Error(`${options.scenario} ended before planwatch started`);
	})]);
	return {playing, abort};
}

describe.concurrent('--wait in the TUI', () => {
	it('+ before the timeout lets a slow plan finish: exit 0 after the original deadline', async () => {
		const namespace = freshNamespace('tui-extend');
		let tui: PtyCli | undefined;
		let launchedAt = 0;
		const {playing} = await playInBackground({
			scenario: 'zookeeper-deploy',
			namespace,
			// About 13 s: longer than the 6 s timeout.
			speed: 2.5,
			target: 'zookeeper-instance',
			launch: async () => {
				launchedAt = Date.now();
				tui = startPtyCli(['instance/zookeeper-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '6s', '--extend', '1m']);
				await tui.waitForText(/timeout \d+:\d\d/);
			},
		});
		tui!.press('+');
		await tui!.waitForText(/extended 1m/);
		expect(await playing).toBeUndefined();
		const exit = await tui!.waitForExit(60_000);
		expect(exit.exitCode, tui!.describe()).toBe(0);
		expect(tui!.exitedAt()! - launchedAt, 'it outlived the original 6 s timeout').toBeGreaterThan(6000);
		expect(tui!.raw()).not.toContain('Timeout reached');
		record({scenarios: 1, note: 'TUI: + before the timeout → exit 0'});
	});

	it('at the timeout it offers + for more time; + in the grace period lets the plan finish with 0', async () => {
		const namespace = freshNamespace('tui-grace');
		let tui: PtyCli | undefined;
		const {playing} = await playInBackground({
			scenario: 'mysql-deploy',
			namespace,
			speed: 3,
			target: 'mysql-instance',
			launch: async () => {
				tui = startPtyCli(['instance/mysql-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '2s', '--extend', '1m']);
				await tui.waitForText(/timeout \d+:\d\d/);
			},
		});
		await tui!.waitForText(/Timeout reached after .* press \+ to wait 1m more, q to quit/, 20_000);
		expect(tui!.exit()).toBeUndefined();
		tui!.press('+');
		await tui!.waitForScreen(text => !text.includes('Timeout reached'), 'the prompt to go away');
		expect(await playing).toBeUndefined();
		const exit = await tui!.waitForExit(60_000);
		expect(exit.exitCode, tui!.describe()).toBe(0);
		record({scenarios: 1, note: 'TUI: + in the grace period → exit 0'});
	});

	it('q before the wait finished exits 130', async () => {
		const namespace = freshNamespace('tui-quit');
		let tui: PtyCli | undefined;
		const {playing, abort} = await playInBackground({
			scenario: 'mysql-deploy',
			namespace,
			// Slow: still running when q is pressed.
			speed: 0.5,
			target: 'mysql-instance',
			launch: async () => {
				tui = startPtyCli(['instance/mysql-instance', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait']);
				await tui.waitForText(/mysql-instance/);
			},
		});
		await tui!.waitForText(/deploy/);
		tui!.press('q');
		const exit = await tui!.waitForExit(15_000);
		abort.abort();
		await playing;
		expect(exit.exitCode, tui!.describe()).toBe(130);
		record({scenarios: 1, note: 'TUI: q mid-wait → exit 130'});
	});

	it('uid race: shows it waits for the controller, then the new run, and exits 0 only after it', async () => {
		const scenario = scenarioNamed('kudo-uid-race');
		const namespace = freshNamespace('tui-race');
		let tui: PtyCli | undefined;
		let sawWaiting = false;
		const {appliedAt} = await playWatched(scenario, {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 10,
			launchAfter: launchIndex(scenario, 'mysql-billing'),
			launch: async () => {
				tui = startPtyCli(['instance/mysql-billing', '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '1m']);
				await tui.waitForText(/waiting for the controller to start backup/);
				sawWaiting = true;
			},
		});
		expect(sawWaiting).toBe(true);
		const exit = await tui!.waitForExit(60_000);
		expect(exit.exitCode, tui!.describe()).toBe(0);
		expect(tui!.exitedAt()!).toBeGreaterThanOrEqual(appliedAt.get(lastStatusIndex(scenario, 'mysql-billing'))!);
		record({scenarios: 1, note: 'TUI: uid race waited for the new run'});
	});

	it('RBAC: the viewer forbidden on actionsets gets one clear line and exit 4', async () => {
		const tui = startPtyCli(['actionset/anything', '--kubeconfig', cluster.viewerKubeconfig, '-n', 'default', '--wait']);
		const exit = await tui.waitForExit(30_000);
		expect(exit.exitCode, tui.describe()).toBe(4);
		const lines = tui.logicalLines().filter(line => line.startsWith('planwatch: '));
		expect(lines, tui.describe()).toHaveLength(1);
		// Forbidden on the Kanister resources the target needs: which one is named first depends on timing.
		expect(lines[0]).toMatch(/forbidden: user viewer cannot \w+ actionsets\.cr\.kanister\.io/);
		expect(tui.text()).not.toMatch(/^\s+at /m);
	});
});

// ------------------------------------------------------------------ hostile --

const fixture = (file: string): KubeObject => loadAllYaml(readFileSync(`${repoRoot}test/fixtures/${file}`, 'utf8'))[0] as KubeObject;

const esc = '\u001B';
/** A core/v1 Event with every kind of hostile text, about the hostile Instance. */
function hostileEvent(namespace: string): KubeObject {
	return {
		apiVersion: 'v1',
		kind: 'Event',
		metadata: {name: 'hostile-escapes.evil', namespace},
		involvedObject: {apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', name: 'hostile-escapes', namespace},
		reason: `Plan${esc}]0;EVENT-TITLE\u0007Started`,
		message: `\u202Eevil${esc}[2J${esc}]52;c;cm0gLXJmIH4=\u0007 \u009B31m\u200Bmessage${esc}[6n\r\nsecond line`,
		type: 'Warning',
		firstTimestamp: '2026-11-30T10:00:00Z',
		lastTimestamp: '2026-11-30T10:00:00Z',
		count: 1,
		source: {component: 'hostile'},
	};
}

/**
 * Press one key and wait for its visible effect. Keys must reach the app one by one: Ink reads a chunk of
 * plain characters as one input, so the next key is pressed only once this one has shown its effect.
 */
async function press(tui: PtyCli, key: string, effect: (text: string) => boolean, what: string): Promise<void> {
	tui.press(key);
	await tui.waitForScreen(effect, `${what} after pressing ${JSON.stringify(key)}`, 10_000);
}

/** `x` (expand / collapse all) where the tree has folds: the fold markers change. */
async function foldAll(tui: PtyCli, name: string): Promise<void> {
	const folds = (text: string) => (text.match(/[▸▾]/g) ?? []).join('');
	const before = folds(tui.text());
	if (before === '') {
		return;
	}

	await press(tui, 'x', text => folds(text) !== before, `expand / collapse all in ${name}`);
}

/** From the list: filter by `name` and open it (each key verified on screen). */
async function openByFilter(tui: PtyCli, name: string): Promise<void> {
	await press(tui, '/', text => text.includes('esc clear'), 'the filter prompt');
	await press(tui, '\u001B', text => !text.includes('esc clear'), 'the filter to clear');
	await press(tui, '/', text => text.includes('esc clear'), 'the filter prompt');
	await press(tui, name, text => text.includes(`/ ${name}`), `the filter text ${name}`);
	await press(tui, '\r', text => !text.includes('esc clear'), 'the filter to be kept');
	await press(tui, '\r', text => new RegExp(`^(Instance|ActionSet) \\S*${name}`, 'm').test(text), `the tree of ${name}`);
}

/** A code point that must never reach a terminal from an object (ESC, C0/C1, bidi, zero-width…); newlines are ours. */
function forbiddenIn(text: string, allow: RegExp = /\n/): string[] {
	return [...text].filter(ch => !allow.test(ch) && isForbiddenCodePoint(ch.codePointAt(0)!)).map(ch => `U+${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

describe('hostile objects accepted by the apiserver are drawn safely', () => {
	let namespace: string;
	const names = ['Instance/hostile-escapes', 'Instance/big-instance', 'Instance/weird-instance', 'Instance/bare-instance', 'ActionSet/hostile-actionset', 'ActionSet/unknown-state'];

	beforeAll(async () => {
		namespace = freshNamespace('hostile');
		expect((await cluster.kubectl(['create', 'namespace', namespace])).code).toBe(0);
		const objects: Array<[string, KubeObject]> = [
			['hostile-escapes', fixture('kudo/instance-hostile-escapes.yaml')],
			['big-instance', fixture('kudo/instance-300-steps.yaml')],
			['weird-instance', fixture('kudo/instance-unknown-status.yaml')],
			['bare-instance', fixture('kudo/instance-missing-status.yaml')],
			['hostile-actionset', fixture('kanister/actionset-hostile-escapes.yaml')],
			['unknown-state', fixture('kanister/actionset-unknown-state.yaml')],
		];
		for (const [name, object] of objects) {
			// Names and namespaces are validated by the server; everything else is stored as given.
			const {uid: _uid, creationTimestamp: _created, ...metadata} = object.metadata ?? {};
			const body = {...object, metadata: {...metadata, name, namespace}};
			const instance = object.kind === 'Instance';
			const base = instance ? `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances` : `/apis/cr.kanister.io/v1alpha1/namespaces/${namespace}/actionsets`;
			const created = await cluster.request('POST', base, {body});
			expect(created.status, `${name}: ${created.body}`).toBe(201);
			if (instance && object['status'] !== undefined) {
				// Instances keep status only through the status subresource.
				const current = created.json as KubeObject;
				const written = await cluster.request('PUT', `${base}/${name}/status`, {body: {...current, status: object['status']}});
				expect(written.status, `${name}/status: ${written.body}`).toBe(200);
			}
		}

		const event = await cluster.request('POST', `/api/v1/namespaces/${namespace}/events`, {body: hostileEvent(namespace)});
		expect(event.status, event.body).toBe(201);
		// The server kept the hostile strings as they were.
		const stored = await cluster.request('GET', `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances/hostile-escapes`);
		expect(stored.body).toContain('\\u001b]8;;https://evil.example/');
		const big = await cluster.request('GET', `/apis/kudo.dev/v1beta1/namespaces/${namespace}/instances/big-instance`);
		expect(JSON.stringify(big.json).match(/"name":"step-\d+"/g)).toHaveLength(300);
	});

	/** Watch until every object is listed, then interrupt: exit 130 with the final picture. */
	async function watchThenInterrupt(output: 'plain' | 'json'): Promise<CliProcess> {
		const cli = startCli(['--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '-o', output]);
		await cli.waitForStdout(out => names.every(n => out.includes(n.split('/')[1]!)), 'every hostile object in the opening output');
		cli.kill('SIGINT');
		const exit = await cli.waitForExit(20_000);
		expect(exit.code, cli.describe()).toBe(130);
		return cli;
	}

	it('-o plain: no control or bidi character from an object, the 300-step plan in full, unknown and missing status in words', async () => {
		const cli = await watchThenInterrupt('plain');
		expect(forbiddenIn(cli.stdout() + cli.stderr()), cli.describe()).toEqual([]);
		const tree = cli.stdout();
		expect(tree.match(/step-\d{3}/g)?.length, 'every step of the 300-step plan is a row').toBeGreaterThanOrEqual(300);
		expect(tree).toContain('SUSPENDED');
		expect(tree).toMatch(/bare-instance[\s\S]*no plan has run/);
		record({objectsCompared: 0, note: 'hostile objects: -o plain clean'});
	});

	it('-o json: every string sanitized, and equal to the server state run through the model', async () => {
		const cli = await watchThenInterrupt('json');
		expect(forbiddenIn(cli.stdout() + cli.stderr()), cli.describe()).toEqual([]);
		const final = cliFinal(cli.stdout());
		expect(uncleanStrings(final.objects)).toEqual([]);
		expect(final.objects.map(o => `${o.kind}/${o.name}`).sort()).toEqual([...names].sort());
		const comparison = compareWithServer(final.objects, await readServer(cluster, namespace), namespace);
		record({objectsCompared: comparison.compared, mismatches: comparison.mismatches.length, note: 'hostile objects: -o json equal to the server'});
		expect(comparison.mismatches).toEqual([]);
	});

	it('TUI in a 30-row terminal: every view fits, no escape from an object reaches the terminal, the title never changes', async () => {
		const tui = startPtyCli(['--kubeconfig', cluster.adminKubeconfig, '-n', namespace], {cols: 100, rows: 30});
		await tui.waitForScreen(text => names.every(n => text.includes(n.split('/')[1]!)), 'the list of every hostile object');
		for (const name of names.map(n => n.split('/')[1]!)) {
			await openByFilter(tui, name);
			await press(tui, 'e', text => text.includes(`EVENTS ${namespace}/${name}`), 'the events pane');
			await press(tui, 'e', text => !text.includes('EVENTS '), 'the events pane to close');
			await foldAll(tui, name);
			await foldAll(tui, name);
			if (name === 'big-instance') {
				// Expanded, then the very bottom of the 300-step plan.
				if (tui.text().includes('▸')) {
					await press(tui, 'x', text => !text.includes('▸'), 'everything expanded');
				}

				// The last row: step-300, or its phase when that one is folded.
				await press(tui, 'G', text => /› .*(step-300|phase-3)/.test(text), 'the cursor on the last row');
				await press(tui, 'g', text => /› .*deploy/.test(text), 'the cursor back at the top');
			}

			await press(tui, '?', text => text.includes('KEYS ('), 'the help overlay');
			await press(tui, '?', text => !text.includes('KEYS ('), 'the help overlay to close');
			await press(tui, '\u001B', text => /KIND\s+NAMESPACE\s+NAME/.test(text), 'the list');
		}

		tui.press('q');
		const exit = await tui.waitForExit(15_000);
		// Watching without --wait: q ends it with 0, though the ActionSet failed (README: exit codes).
		expect(exit.exitCode, tui.describe()).toBe(0);
		expect(tui.maxScrolled(), 'a frame taller than the terminal scrolled it').toBe(0);
		expect(tui.titles(), 'an object string set the terminal title').toEqual([]);
		const raw = tui.raw();
		expect(raw).not.toContain(`${esc}]`);
		expect(raw).not.toContain(`${esc}[2J`);
		expect(raw).not.toContain(`${esc}_`);
		expect(raw).not.toContain(`${esc}[6n`);
		// Our own output is SGR and cursor movement; no other control or bidi character appears.
		expect(forbiddenIn(raw.replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, ''), /[\n\r]/)).toEqual([]);
		record({note: 'hostile objects: TUI in 30 rows, every view'});
	});
});
