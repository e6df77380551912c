/**
 * ETA, copy, save and notifications through the real path: raw KUDO objects → Store → history session (a history
 * file in a temp dir) → App, with the CLI's actions writing to a fake terminal and a temp working directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, test} from 'vitest';
import {drawOnce} from '../../source/cli/draw-once.js';
import {Notifier} from '../../source/cli/notifier.js';
import {createTerminalSignals} from '../../source/cli/terminal-signals.js';
import {createTuiActions} from '../../source/cli/tui-actions.js';
import {openHistoryFile} from '../../source/history/history-file.js';
import {feedWithHistory, startHistory, type HistorySession} from '../../source/history/history-session.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {formatRunRecord, type RunRecord} from '../../source/model/run-history.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {cleanupUi, ENTER, renderUi} from '../helpers/ui.js';

let dir: string;
let session: HistorySession | undefined;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-eta-'));
});
afterEach(() => {
	cleanupUi();
	session?.dispose();
	session = undefined;
	fs.rmSync(dir, {recursive: true, force: true});
});

type PlanStatus = {status: string; uid?: string; phases: Array<{status: string; steps: Array<{name: string; status: string}>}>};

/** mysql's deploy plan with its one phase and the given step states. */
function deploy(plan: string, steps: Record<string, string>, name = 'mysql-instance'): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'));
	o.metadata = {...o.metadata, name};
	const s = o['status'] as {planStatus: Record<string, PlanStatus>};
	s.planStatus['deploy']!.status = plan;
	s.planStatus['deploy']!.phases[0]!.status = plan;
	for (const step of s.planStatus['deploy']!.phases[0]!.steps) {
		step.status = steps[step.name] ?? 'PENDING';
	}

	return o;
}

function pastRun(n: number, planMs: number, initMs: number): RunRecord {
	return {
		v: 1,
		kind: 'Instance',
		group: 'mysql-5.7-0.3.0',
		top: 'deploy',
		run: `past-${n}`,
		at: '2026-11-01T00:00:00.000Z',
		outcome: 'succeeded',
		durations: [
			{path: [], ms: planMs},
			{path: ['deploy', 'init'], ms: initMs},
		],
	};
}

function setup(options: {history: boolean; targets?: string[]; isTTY?: boolean; env?: Record<string, string>}) {
	const clock = new FakeClock();
	const store = new Store(clock);
	for (const o of loadFixture('kudo/operatorversion-mysql.yaml')) {
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: o});
	}

	const file = path.join(dir, 'state', 'planwatch', 'history.ndjson');
	fs.mkdirSync(path.dirname(file), {recursive: true});
	fs.writeFileSync(file, [pastRun(1, 120_000, 60_000), pastRun(2, 180_000, 90_000), pastRun(3, 150_000, 80_000)].map(r => formatRunRecord(r)).join(''));
	session = options.history ? startHistory(store, openHistoryFile(file)) : undefined;
	const written: string[] = [];
	const signals = createTerminalSignals({write: t => written.push(t), isTTY: options.isTTY ?? true, env: options.env ?? {}});
	const notifier = new Notifier('always', signals, clock.now());
	const actions = createTuiActions({store, clock, ascii: false, signals, notifier, dir, expectations: session?.expectations, timeZone: 'UTC'});
	const app = renderUi(
		<App
			store={store}
			clock={clock}
			wait={new FakeWait()}
			header={{context: 'kind-prod', scope: 'default'}}
			targets={options.targets}
			ascii={false}
			color={false}
			timeZone="UTC"
			actions={actions}
			expectations={session?.expectations}
			onQuit={() => {}}
		/>,
		{columns: 120, rows: 30},
	);
	// The CLI's path: every source event goes through the history feed.
	const feed = feedWithHistory(store, session);
	return {clock, store: {apply: feed, getSnapshot: store.getSnapshot}, app, written, file};
}

const key = 'Instance/default/mysql-instance';

describe('ETA from past runs', () => {
	test('a running plan and step show what is left, from the median of past runs; past the slowest run, overdue', async () => {
		const {clock, store, app} = setup({history: true, targets: [key]});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING', {})});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		clock.advance(30_000);
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'COMPLETE', init: 'IN_PROGRESS'})});
		// plan: median 2m30s - 30s elapsed; init: median 1m20s, just started (estimates in whole minutes).
		let frame = await app.waitForFrame(f => f.includes('init') && f.includes('left'));
		expect(frame).toMatch(/▾ ● deploy .*0:30 +~2m left/);
		expect(frame).toMatch(/● init .*0:00 +~1m left/);
		// The object's header line says the plan's ETA too.
		expect(frame.split('\n')[1]).toBe('Instance default/mysql-instance  ·  mysql-5.7-0.3.0  ·  active plan deploy  ·  ~2m left');
		clock.advance(100_000);
		// init: 1m40s elapsed, past its slowest run (1m30s): overdue 10s. The plan (2m10s): past its median, 20s to its slowest.
		frame = await app.waitForFrame(f => f.includes('overdue'));
		expect(frame).toMatch(/● init .*1:40 +overdue 10s/);
		expect(frame).toMatch(/▾ ● deploy .*2:10 +~20s left/);
	});

	test('--no-history: no ETA anywhere', async () => {
		const {clock, store, app} = setup({history: false, targets: [key]});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING', {})});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		clock.advance(5000);
		const frame = await app.waitForFrame(f => f.includes('0:05'));
		expect(frame).not.toMatch(/left|overdue/);
	});

	test('the list has an ETA column for running plans with a history', async () => {
		const {clock, store, app} = setup({history: true});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING', {})});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		store.apply({type: 'synced'});
		clock.advance(60_000);
		const frame = await app.waitForFrame(f => f.includes('ETA'));
		expect(frame).toMatch(/ELAPSED {2}ETA/);
		expect(frame).toMatch(/mysql-instance .*1:00 +~2m left/);
	});

	test('a run seen from start to end is filed, and -o json gives eta from the history', async () => {
		const {clock, store, file} = setup({history: true, targets: [key]});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('PENDING', {})});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		await Promise.resolve();
		clock.advance(45_000);
		const text = [...drawOnce(store.getSnapshot(), {output: 'json', ascii: false, color: false, now: clock.now(), expectations: session!.expectations}).chunks].join('');
		const document = JSON.parse(text) as {objects: Array<{eta?: unknown; tree: Array<{name: string; eta?: unknown}>}>};
		expect(document.objects[0]!.eta).toEqual({state: 'left', ms: 105_000, text: '~2m left', runs: 3});
		expect(document.objects[0]!.tree.find(n => n.name === 'deploy')!.eta).toEqual({state: 'left', ms: 105_000, text: '~2m left', runs: 3});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('COMPLETE', {deploy: 'COMPLETE', init: 'COMPLETE', cleanup: 'COMPLETE'})});
		await Promise.resolve();
		await Promise.resolve();
		const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
		expect(lines).toHaveLength(4);
		expect(JSON.parse(lines[3]!)).toMatchObject({kind: 'Instance', group: 'mysql-5.7-0.3.0', top: 'deploy', durations: expect.arrayContaining([{path: [], ms: 45_000}])});
	});
});

describe('copy, save and notifications', () => {
	const osc52 = (written: readonly string[]) => written.join('').match(/\u001B\]52;c;([A-Za-z\d+/=]*)\u0007/)?.[1];

	test('y sends the summary and plain tree (a Markdown code block) with OSC 52, Y the JSON; the footer says where to', async () => {
		const {store, app, written} = setup({history: true, targets: [key]});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		await app.waitForFrame(f => f.includes('init'));
		await app.press('y');
		let frame = await app.waitForFrame(f => f.includes('sent'));
		// Not "copied": OSC 52 is never acknowledged, and tmux's defaults drop it.
		expect(frame.split('\n').at(-1)).toBe('sent the tree of default/mysql-instance to the terminal\'s clipboard');
		const fenced = Buffer.from(osc52(written)!, 'base64').toString('utf8');
		expect(fenced.startsWith('```\n')).toBe(true);
		expect(fenced.endsWith('\n```\n')).toBe(true);
		const tree = fenced.slice(4, -4);
		expect(tree.split('\n')[0]).toMatch(/^Instance default\/mysql-instance · mysql-5.7-0.3.0 · active plan deploy( · times UTC)?$/);
		expect(tree).toMatch(/├─ ● deploy/);
		expect(tree.trim().split('\n').at(-1)).toMatch(/^● deploy in progress/);
		written.length = 0;
		await app.press('Y');
		await app.waitForFrame(f => f.includes('sent the JSON'));
		const json = JSON.parse(Buffer.from(osc52(written)!, 'base64').toString('utf8')) as {name: string; tree: unknown[]};
		expect(json.name).toBe('mysql-instance');
		// The next key brings the hints back.
		await app.press('j');
		frame = await app.waitForFrame(f => f.includes('? help'));
		expect(frame).not.toContain("terminal's clipboard");
	});

	test('inside tmux the clipboard sequence goes as it is (set-clipboard on) and through the DCS passthrough', async () => {
		const {store, app, written} = setup({history: false, targets: [key], env: {TMUX: '/tmp/tmux-1000/default,1,0'}});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		await app.waitForFrame(f => f.includes('init'));
		await app.press('y');
		await app.waitForFrame(f => f.includes('sent'));
		expect(written.join('')).toMatch(/^\u001B\]52;c;([A-Za-z\d+/=]+)\u0007\u001BPtmux;\u001B\u001B\]52;c;\1\u0007\u001B\\$/);
	});

	test('s saves plain and JSON side by side, never over an existing file; a failed write is a footer error', async () => {
		const {store, app, clock} = setup({history: false, targets: [key]});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		await app.waitForFrame(f => f.includes('init'));
		await app.press('s');
		let frame = await app.waitForFrame(f => f.includes('saved'));
		expect(frame.split('\n').at(-1)).toBe('saved ./planwatch-default-mysql-instance-20261130T110000Z.txt and .json');
		const base = path.join(dir, 'planwatch-default-mysql-instance-20261130T110000Z');
		expect(fs.readFileSync(`${base}.txt`, 'utf8')).toMatch(/^Instance default\/mysql-instance/);
		expect(JSON.parse(fs.readFileSync(`${base}.json`, 'utf8'))).toMatchObject({kind: 'Instance', name: 'mysql-instance'});
		await app.press('j', 's');
		await app.waitForFrame(f => f.includes('-2.txt'));
		expect(fs.existsSync(`${base}-2.json`)).toBe(true);
		// The directory goes away: the footer says why, the app goes on.
		fs.rmSync(dir, {recursive: true, force: true});
		clock.advance(1000);
		await app.press('j', 's');
		frame = await app.waitForFrame(f => f.includes('could not save'));
		expect(frame.split('\n').at(-1)).toMatch(/^could not save: ENOENT/);
		fs.mkdirSync(dir);
	});

	test('a hostile object name makes a safe file name', async () => {
		const {store, app} = setup({history: false});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'}, '..evil')});
		store.apply({type: 'synced'});
		await app.waitForFrame(f => f.includes('..evil'));
		await app.press('s');
		await app.waitForFrame(f => f.includes('saved'));
		expect(fs.readdirSync(dir).filter(f => f.startsWith('planwatch-')).sort()).toEqual([
			'planwatch-default-..evil-20261130T110000Z.json',
			'planwatch-default-..evil-20261130T110000Z.txt',
		]);
	});

	test('n turns notifications off and on; nothing is copied when stdout is not a terminal', async () => {
		const {store, app, written} = setup({history: false, targets: [key], isTTY: false});
		store.apply({type: 'upsert', resource: 'Instance', object: deploy('IN_PROGRESS', {deploy: 'IN_PROGRESS'})});
		await app.waitForFrame(f => f.includes('init'));
		await app.press('y');
		await app.waitForFrame(f => f.includes('copying needs a terminal'));
		await app.press('n');
		await app.waitForFrame(f => f.includes('notifications need a terminal'));
		expect(written).toEqual([]);
		void ENTER;
	});
});
